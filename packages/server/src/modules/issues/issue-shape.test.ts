import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { dateFromJson, isoFromJson, isoSql, jsonTimeSql } from "../../db/sql-time.js";
import { useTestServer } from "../../test/harness.js";
import { issueFieldsOf } from "./issue-fixtures.js";
import { ISSUE_COLUMNS, ISSUE_FROM, type IssueRow, issueFromRow } from "./issue-shape.js";

const srv = useTestServer();

/**
 * The contract's `Issue` is written three ways: `issueFromRow` builds the object (creates, updates, the
 * single read), and a list page writes its JSON text field by field from `ISSUE_PAGE_FIELDS` and the names
 * cache (`list/page-json.ts`). For the same issues the answers must be the same, to the order of the fields.
 */
describe("the Issue shape", () => {
  it("is the same built from a row, read alone, listed on a page and answered by a write", async () => {
    const { workspace, user, team, apiKey } = await srv.bootstrap({ team: { key: "SER", name: "Serial" } });
    const [todo] = await srv.query<{ id: string }>(
      "select id from workflow_states where team_id = $1 and name = 'Todo'",
      [team!.id],
    );
    const cycleId = randomUUID();
    await srv.query(
      `insert into cycles (id, team_id, number, name, starts_at, ends_at, created_at)
       values ($1, $2, 4, null, now(), now() + interval '14 days', now())`,
      [cycleId, team!.id],
    );
    const projectId = randomUUID();
    await srv.query(
      `insert into projects (id, workspace_id, name, status, created_at, updated_at)
       values ($1, $2, 'Apollo', 'started', now(), now())`,
      [projectId, workspace.id],
    );
    const full = randomUUID();
    const bare = randomUUID();
    await srv.query(
      `insert into issues (id, workspace_id, team_id, number, title, description, priority, estimate, due_date,
                           state_id, state_type, assignee_id, creator_id, project_id, cycle_id, parent_id,
                           created_at, updated_at, archived_at)
       values ($1, $3, $4, 1, 'Full "quoted" \\ text', 'Body', 2, 3, '2030-01-31', $5, 'unstarted', $6, $6, $7, $8,
               null, '2026-01-02T03:04:05.678Z', '2026-01-03T00:00:00Z', '2026-01-04T05:06:07.891Z'),
              ($2, $3, $4, 2, 'Bare', null, 0, null, null, $5, 'unstarted', null, null, null, null, $1,
               '2026-01-01T00:00:00.5Z', '2026-01-02T00:00:00Z', null)`,
      [full, bare, workspace.id, team!.id, todo!.id, user.id, projectId, cycleId],
    );
    const [l1, l2] = [randomUUID(), randomUUID()];
    await srv.query(
      `insert into labels (id, workspace_id, name, color, created_at, updated_at)
       values ($1, $3, 'zeta', '#000000', now(), now()), ($2, $3, 'Alpha', '#000000', now(), now())`,
      [l1, l2, workspace.id],
    );
    await srv.query("insert into issue_labels (issue_id, label_id) values ($1, $2), ($1, $3)", [
      full,
      l1,
      l2,
    ]);
    // Delegated to an agent (openapi.yaml, `Issue.delegate`).
    const agent = (await srv.client(apiKey.token).POST("/agents", { body: { name: "shape-bot" } })).data!
      .agent;
    await srv.query("update issues set delegate_id = $2 where id = $1", [full, agent.id]);

    // Built: the row `issueColumns` selects, shaped by `issueFromRow`.
    const rows = await srv.query<IssueRow>(
      `select ${ISSUE_COLUMNS} from ${ISSUE_FROM} where i.id = any($1::uuid[]) order by i.updated_at desc`,
      [[full, bare]],
    );
    const built = rows.map(issueFromRow);
    expect(built[0]).toEqual({
      id: full,
      identifier: "SER-1",
      title: 'Full "quoted" \\ text',
      description: "Body",
      priority: 2,
      estimate: 3,
      dueDate: "2030-01-31",
      delegate: { id: agent.id, name: "shape-bot" },
      team: { id: team!.id, key: "SER", name: "Serial" },
      state: { id: todo!.id, name: "Todo", type: "unstarted" },
      assignee: { id: user.id, name: user.name, email: user.email },
      project: { id: projectId, name: "Apollo" },
      cycle: { id: cycleId, number: 4 },
      labels: ["Alpha", "zeta"],
      parentId: null,
      createdAt: "2026-01-02T03:04:05.678Z",
      updatedAt: "2026-01-03T00:00:00.000Z",
      completedAt: null,
      archivedAt: "2026-01-04T05:06:07.891Z",
    });
    expect(built[1]).toMatchObject({
      archivedAt: null,
      description: null,
      estimate: null,
      assignee: null,
      delegate: null,
      labels: [],
      parentId: full,
    });

    const api = srv.client(apiKey.token);
    // Read alone: the issue's own fields of `IssueDetail`, in the same order (the rest are the detail's).
    for (const [n, identifier] of ["SER-1", "SER-2"].entries()) {
      const read = await api.GET("/issues/{identifier}", { params: { path: { identifier } } });
      const issue = issueFieldsOf(read.data!.issue);
      expect(JSON.stringify(issue)).toBe(JSON.stringify(built[n]));
    }
    // Listed: the page's JSON text, written from ISSUE_PAGE_FIELDS and the names cache (archived or not).
    const page = await fetch(`${srv.url}/api/v1/issues?team=SER&sort=-updated&archived=any`, {
      headers: { authorization: `Bearer ${apiKey.token}` },
    });
    const listed = (JSON.parse(await page.text()) as { issues: unknown[] }).issues;
    expect(listed.map((i) => JSON.stringify(i))).toEqual(built.map((i) => JSON.stringify(i)));
    // Answered by a write: the statement that writes reads the issue back with `issueColumns` too.
    const written = await api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: "SER-2" } },
      body: { labels: ["zeta", "Alpha"] },
    });
    const [after] = (
      await srv.query<IssueRow>(`select ${ISSUE_COLUMNS} from ${ISSUE_FROM} where i.id = $1`, [bare])
    ).map(issueFromRow);
    expect(JSON.stringify(written.data!.issue)).toBe(JSON.stringify(after));
    expect(after!.labels).toEqual(["Alpha", "zeta"]);
  });
});

describe("jsonTimeSql", () => {
  it("reads back exactly what isoSql and to_char write, whatever the fraction and the session's DateStyle", async () => {
    const values = [
      "2026-01-02 03:04:05+00",
      "2026-01-02 03:04:05.5+00",
      "2026-01-02 03:04:05.05+00",
      "2026-01-02 03:04:05.000001+00",
      "2026-01-02 03:04:05.999999+00",
      "2026-12-31 23:59:59.12345+00",
      "1999-06-30 12:00:00.1+02",
    ];
    for (const style of ["ISO, MDY", "SQL, DMY", "German"]) {
      const rows = await srv.query<{
        iso: string;
        json: string;
        date: string;
        jsonDate: string;
        text: string;
      }>(
        `select ${isoSql("t")} as iso, ${jsonTimeSql("t")} as json, t::date::text as text,
                to_char(t::date, 'YYYY-MM-DD') as date, ${jsonTimeSql("t::date", false)} as "jsonDate"
           from (select set_config('datestyle', $2, true)) s, unnest($1::timestamptz[]) t`,
        [values, style],
      );
      expect(rows).toHaveLength(values.length);
      expect(rows[0]!.text, style).toBe(
        style === "German" ? "02.01.2026" : style === "SQL, DMY" ? "02/01/2026" : "2026-01-02",
      );
      for (const r of rows) {
        expect(isoFromJson(r.json), `${r.json} (${style})`).toBe(r.iso);
        expect(dateFromJson(r.jsonDate), style).toBe(r.date);
      }
    }
    expect(isoFromJson(null)).toBeNull();
    expect(dateFromJson(null)).toBeNull();
  });
});
