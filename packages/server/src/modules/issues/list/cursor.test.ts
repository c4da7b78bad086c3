import type { components, operations } from "@tracker/sdk/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/harness.js";

// The contract's "Pagination": `cursor` and `nextCursor` on the issue list, keyset-based for every sort key.
let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

type Query = NonNullable<operations["listIssues"]["parameters"]["query"]>;
type Sort = NonNullable<Query["sort"]>;
type Issue = components["schemas"]["Issue"];

/**
 * `count` issues in `teamId` written set-based, with values repeated and missing for every sort key (ties
 * and NULLs on each), spread over the team's states and `assignees` (and none).
 */
async function seed(workspaceId: string, teamId: string, count: number, assignees: string[], spread = true) {
  await srv.query(
    `with t as (update teams set issue_counter = issue_counter + $3 where id = $2 returning issue_counter - $3 as base),
          s as (select id, type, row_number() over (order by position) - 1 as n, count(*) over () as c
                  from workflow_states where team_id = $2)
     insert into issues (id, workspace_id, team_id, number, title, priority, estimate, due_date, state_id, state_type,
                         assignee_id, created_at, updated_at, completed_at)
     select gen_random_uuid(), $1, $2, t.base + g,
            case when $5 then (array['Alpha', 'beta', 'Gamma', 'alpha', 'Delta'])[1 + g % 5] || ' ' || (g % 7) else 'Issue ' || g end,
            g % 5, case when g % 3 = 0 then null else g % 4 end,
            case when g % 4 = 0 then null else date '2026-12-01' + (g % 6) end,
            s.id, s.type,
            (case when cardinality($4::uuid[]) = 0 or g % 4 = 0 then null else ($4::uuid[])[1 + g % greatest(cardinality($4::uuid[]), 1)] end),
            case when $5 then timestamptz '2026-11-01' + (g % 9) * interval '1 hour' else now() - g * interval '1 second' end,
            case when $5 then timestamptz '2026-11-20' + (g % 11) * interval '1 minute' else now() - g * interval '1 second' end,
            case when s.type in ('completed', 'canceled') then now() end
       from t, generate_series(1, $3) g join s on s.n = g % s.c`,
    [workspaceId, teamId, count, assignees, spread],
  );
}

/** Every page of `query` by cursor, and the pages' sizes. */
async function walk(
  api: ReturnType<TestServer["client"]>,
  query: Query,
  between?: (page: Issue[]) => Promise<void>,
) {
  const seen: Issue[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await api.GET("/issues", { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } });
    expect(res.response.status, JSON.stringify(res.error)).toBe(200);
    const page = res.data!;
    seen.push(...page.issues);
    if (cursor) expect(page.nextOffset).toBeNull();
    if (!page.nextCursor) return seen;
    expect(page.issues).toHaveLength(query.limit ?? 50);
    await between?.(page.issues);
    cursor = page.nextCursor;
  }
}

describe("cursor pagination of the issue list", () => {
  it("walks the same issues as one big page for every sort key, both ways, ties and missing values included", async () => {
    const { apiKey, workspace, team } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    const amy = await srv.addMember(apiKey.token, "member", "amy@example.com");
    const bob = await srv.addMember(apiKey.token, "member", "bob@example.com");
    await srv.query("update users set name = 'Amy' where id = $1", [amy.userId]);
    await srv.query("update users set name = 'bob' where id = $1", [bob.userId]);
    await seed(workspace.id, team!.id, 180, [amy.userId, bob.userId]);
    const keys = ["priority", "due", "created", "updated", "title", "estimate", "state", "assignee"];
    for (const key of keys)
      for (const sort of [key, `-${key}`] as Sort[]) {
        const whole = (await api.GET("/issues", { params: { query: { sort, limit: 200 } } })).data!;
        expect(whole.issues).toHaveLength(180);
        expect(whole.nextCursor).toBeNull();
        const paged = await walk(api, { sort, limit: 7 });
        expect(
          paged.map((i) => i.id),
          sort,
        ).toEqual(whole.issues.map((i) => i.id));
        // An offset page answers the cursor of its last issue too: a client may switch.
        const first = (await api.GET("/issues", { params: { query: { sort, limit: 20, offset: 40 } } }))
          .data!;
        const next = (
          await api.GET("/issues", { params: { query: { sort, limit: 20, cursor: first.nextCursor! } } })
        ).data!;
        expect(next.issues.map((i) => i.id)).toEqual(whole.issues.slice(60, 80).map((i) => i.id));
      }
    // With a filter, a team and a search the cursor continues the same list.
    for (const query of [
      { team: "ENG", stateType: ["unstarted", "started"], sort: "-updated" },
      { q: "alpha", sort: "-updated" },
      { special: ["unassigned"], sort: "due" },
    ] as Query[]) {
      const whole = (await api.GET("/issues", { params: { query: { ...query, limit: 200 } } })).data!;
      expect(whole.issues.length).toBeGreaterThan(10);
      const paged = await walk(api, { ...query, limit: 4 });
      expect(paged.map((i) => i.id)).toEqual(whole.issues.map((i) => i.id));
    }
  });

  it("refuses a cursor it did not make, one of another sort, and a cursor with an offset (400)", async () => {
    const { apiKey, workspace, team } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    await seed(workspace.id, team!.id, 30, []);
    const first = (await api.GET("/issues", { params: { query: { limit: 5 } } })).data!;
    const forge = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const [, , at, teamId, number] = JSON.parse(
      Buffer.from(first.nextCursor!, "base64url").toString(),
    ) as unknown[];
    for (const cursor of [
      "nope",
      forge(["issues", "-updated", "2026-13-45T99:00:00Z", teamId, number]),
      forge(["issues", "-updated", at, "not-a-uuid", number]),
      forge(["issues", "-updated", at, teamId, 2 ** 40]),
      forge(["issues", "-updated", at, teamId]),
      forge(["issues", "-updated", null, teamId, number]),
      forge(["projects", "-updated", at, teamId, number]),
      forge(["issues", "title", "a\u0000b", teamId, number]),
    ]) {
      const res = await api.GET("/issues", { params: { query: { limit: 5, cursor } } });
      expect(res.response.status, cursor).toBe(400);
      expect((res.error as { code: string }).code).toBe("invalid_request");
    }
    const other = await api.GET("/issues", {
      params: { query: { sort: "title", cursor: first.nextCursor! } },
    });
    expect(other.response.status).toBe(400);
    const both = await api.GET("/issues", { params: { query: { offset: 5, cursor: first.nextCursor! } } });
    expect(both.response.status).toBe(400);
  });

  it("walks 2,000 issues by -updated while others write: none twice, every one not written exactly once; offsets repeat and skip", async () => {
    const { apiKey, workspace } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    const teams = await Promise.all(
      ["CUR", "OFF"].map(async (key) => (await api.POST("/teams", { body: { key, name: key } })).data!),
    );
    const ids = await srv.query("select id, key from teams where workspace_id = $1", [workspace.id]);
    for (const key of ["CUR", "OFF"])
      await seed(
        workspace.id,
        (ids as { id: string; key: string }[]).find((t) => t.key === key)!.id,
        2000,
        [],
        false,
      );
    expect(teams).toHaveLength(2);

    /**
     * One walk of `team` with writers: after each page a writer changes an issue not read yet (it moves to the
     * front) and archives one already read (it leaves the list), while another retitles issues at random
     * throughout. Returns the issues read in order and those written.
     */
    const walkWhileWriting = async (team: string, by: "cursor" | "offset") => {
      const all = (await srv.query(
        "select t.key || '-' || i.number as identifier from issues i join teams t on t.id = i.team_id where t.key = $1",
        [team],
      )) as { identifier: string }[];
      const touched = new Set<string>();
      const read: string[] = [];
      let done = false;
      let failed = false;
      const patch = async (identifier: string) => {
        touched.add(identifier);
        await api.PATCH("/issues/{identifier}", {
          params: { path: { identifier } },
          body: { title: `changed ${identifier}` },
        });
      };
      const background = (async () => {
        while (!done && !failed) {
          await patch(all[Math.floor(Math.random() * all.length)]!.identifier);
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      // Pages in turn: three unread issues change (moving ahead of the page), or three read ones are archived.
      let pages = 0;
      const between = async () => {
        const seen = new Set(read);
        for (let n = 0; n < 3; n++)
          if (pages % 2 === 0) {
            const unread = all.filter((i) => !seen.has(i.identifier) && !touched.has(i.identifier));
            const ahead = unread[Math.floor(unread.length / 2)];
            if (ahead) await patch(ahead.identifier);
          } else {
            const behind = read.find((r) => !touched.has(r));
            if (!behind) continue;
            touched.add(behind);
            await api.POST("/issues/{identifier}/archive", { params: { path: { identifier: behind } } });
          }
        pages++;
      };
      const query: Query = { team, sort: "-updated", limit: 50 };
      try {
        if (by === "cursor") {
          const seen = await walk(api, query, async (page) => {
            read.push(...page.map((i) => i.identifier));
            await between();
          });
          read.splice(0, read.length, ...seen.map((i) => i.identifier));
        } else
          for (let offset = 0; ; offset += 50) {
            const page = (await api.GET("/issues", { params: { query: { ...query, offset } } })).data!;
            read.push(...page.issues.map((i) => i.identifier));
            if (page.nextOffset === null) break;
            await between();
          }
      } catch (e) {
        failed = true;
        await background.catch(() => {});
        throw e;
      }
      done = true;
      await background;
      // The last page read without the writers' last changes counts too: re-read nothing.
      return { read, touched, all: all.map((i) => i.identifier) };
    };

    const cursor = await walkWhileWriting("CUR", "cursor");
    const counts = (read: string[]) =>
      read.reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map<string, number>());
    const byCursor = counts(cursor.read);
    expect([...byCursor.values()].every((n) => n === 1)).toBe(true);
    const untouched = cursor.all.filter((id) => !cursor.touched.has(id));
    expect(untouched.length).toBeGreaterThan(1000);
    const missing = untouched.filter((id) => byCursor.get(id) !== 1);
    expect(missing).toEqual([]);

    // The same with offsets: issues moving ahead of the page shift later ones back (read twice), and issues
    // leaving the pages read shift them forward (never read), although they were not written.
    const offset = await walkWhileWriting("OFF", "offset");
    const byOffset = counts(offset.read);
    const untouchedOff = offset.all.filter((id) => !offset.touched.has(id));
    expect(untouchedOff.filter((id) => (byOffset.get(id) ?? 0) > 1).length).toBeGreaterThan(0);
    expect(untouchedOff.filter((id) => !byOffset.has(id)).length).toBeGreaterThan(0);
  }, 240_000);
});
