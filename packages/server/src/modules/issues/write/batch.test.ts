import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  driftedLabelIds,
  driftedProjectCounts,
  driftedTeamStateCounts,
} from "../../../test/derived-counts.js";
import { startTestServer, type TestServer } from "../../../test/harness.js";
import { brokenInvariants } from "../../../test/invariants.js";
import { addCycle, addProject } from "../issue-fixtures.js";
import type { IssueOut as Issue, IssueCreateInput } from "../issue-shape.js";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

async function workspace() {
  const { apiKey, workspace } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const api = srv.client(apiKey.token);
  await api.POST("/teams", { body: { key: "OPS", name: "Operations" } });
  const count = async () =>
    Number(
      (
        await srv.query<{ n: string }>("select count(*) as n from issues where workspace_id = $1", [
          workspace.id,
        ])
      )[0]!.n,
    );
  return { api, token: apiKey.token, count, ws: workspace.id };
}

describe("POST /issues/batch (real server)", () => {
  it("creates every issue in order, numbered consecutively per team, each as POST /issues would", async () => {
    const { api } = await workspace();
    await api.POST("/issues", { body: { team: "ENG", title: "Before" } });
    const res = await api.POST("/issues/batch", {
      body: {
        issues: [
          { team: "ENG", title: "One", priority: 1, labels: ["bug"] },
          { team: "OPS", title: "Two", state: "Todo" },
          { team: "ENG", title: "Three", estimate: 3 },
        ],
      },
    });
    expect(res.response.status).toBe(201);
    const issues = res.data!.issues;
    expect(issues.map((i) => [i.identifier, i.title])).toEqual([
      ["ENG-2", "One"],
      ["OPS-1", "Two"],
      ["ENG-3", "Three"],
    ]);
    expect(issues[0]).toMatchObject({ priority: 1, labels: ["bug"] });
    expect(issues[1]!.state.name).toBe("Todo");
    const read = await api.GET("/issues/{identifier}", { params: { path: { identifier: "ENG-3" } } });
    expect(read.data!.issue).toMatchObject({ title: "Three", estimate: 3 });
  });

  it("creates none when any item is refused, and says which item and why", async () => {
    const { api, count } = await workspace();
    const before = await count();
    const res = await api.POST("/issues/batch", {
      body: {
        issues: [
          { team: "ENG", title: "Fine" },
          { team: "NOPE", title: "No such team" },
          { team: "ENG", title: "Also fine" },
        ],
      },
    });
    expect(res.response.status).toBe(404);
    expect(res.response.headers.get("content-type")).toContain("application/problem+json");
    const problem = res.error as { code: string; detail: string; errors: { path: string }[] };
    expect(problem.code).toBe("not_found");
    expect(problem.detail).toMatch(/^Issue 2 of 3: No team "NOPE"/);
    expect(problem.errors[0]!.path).toBe("/body/issues/1");
    expect(await count()).toBe(before);
    // The numbers the refused batch would have taken are not used up.
    const next = await api.POST("/issues", { body: { team: "ENG", title: "Next" } });
    expect(next.data!.issue.identifier).toBe("ENG-1");

    const badState = await api.POST("/issues/batch", {
      body: {
        issues: [
          { team: "ENG", title: "A" },
          { team: "ENG", title: "B", state: "Nowhere" },
        ],
      },
    });
    expect(badState.response.status).toBe(400);
    expect((badState.error as { detail: string }).detail).toMatch(/^Issue 2 of 2: /);
    expect(await count()).toBe(before + 1);
  });

  it("places an item its schema refuses as it places one a rule refuses: position first, paths into it", async () => {
    const { api, count } = await workspace();
    const before = await count();
    type Problem = { code: string; detail: string; errors: { path: string; message: string }[] };
    // The problem the item alone gets from `POST /issues`, which the batch's answer must be, placed.
    const single = (await api.POST("/issues", { body: { team: "ENG", title: "Bad", priority: 9 as 0 } }))
      .error as Problem;
    expect(single.errors).toEqual([{ path: "/body/priority", message: expect.any(String) }]);

    const res = await api.POST("/issues/batch", {
      body: {
        issues: [
          { team: "ENG", title: "Fine" },
          { team: "ENG", title: "Bad", priority: 9 as 0 },
          { team: "ENG", title: "Also fine" },
        ],
      },
    });
    expect(res.response.status).toBe(400);
    expect(res.error).toMatchObject({
      code: "invalid_request",
      detail: `Issue 2 of 3: ${single.detail}`,
      errors: [
        { path: "/body/issues/1", message: single.detail },
        { path: "/body/issues/1/priority", message: single.errors[0]!.message },
      ],
    });

    // Several refused items: the first one answers, as for rules.
    const two = await api.POST("/issues/batch", {
      body: {
        issues: [
          { team: "ENG", title: "Fine" },
          { team: "ENG", title: "Fine too" },
          { team: "ENG" } as never,
          { team: "ENG", title: "x", colour: "red" } as never,
        ],
      },
    });
    expect(two.error).toMatchObject({
      detail: /^Issue 3 of 4: /,
      errors: [
        { path: "/body/issues/2" },
        { path: "/body/issues/2/title", message: "must have required property 'title'" },
      ],
    });
    expect((two.error as Problem).errors).toHaveLength(2);

    // A value no field can store is the item's refusal too.
    const nul = await api.POST("/issues/batch", {
      body: {
        issues: [
          { team: "ENG", title: "Fine" },
          { team: "ENG", title: "a\u0000b" },
        ],
      },
    });
    expect(nul.response.status).toBe(400);
    expect(nul.error).toMatchObject({
      detail: /^Issue 2 of 2: /,
      errors: [{ path: "/body/issues/1" }, { path: "/body/issues/1/title" }],
    });

    // A refusal of the batch itself, not of an item, names no item.
    const whole = await api.POST("/issues/batch", {
      body: { issues: [{ team: "ENG", title: "Fine" }], colour: "red" } as never,
    });
    expect(whole.error).toMatchObject({
      detail: "Invalid request body.",
      errors: [{ path: "/body/colour", message: "is not a known field" }],
    });
    expect(await count()).toBe(before);
  });

  it("takes 1 to 100 issues, each checked against the contract before anything is written", async () => {
    const { api, count } = await workspace();
    const before = await count();
    const many = Array.from({ length: 101 }, (_, i) => ({ team: "ENG", title: `Issue ${i}` }));
    for (const issues of [[], many, [{ team: "ENG" }], [{ team: "ENG", title: "x", colour: "red" }]]) {
      const res = await api.POST("/issues/batch", { body: { issues } as never });
      expect(res.response.status).toBe(400);
      expect((res.error as { code: string }).code).toBe("invalid_request");
    }
    const hundred = await api.POST("/issues/batch", { body: { issues: many.slice(0, 100) } });
    expect(hundred.response.status).toBe(201);
    expect(hundred.data!.issues.at(-1)!.identifier).toBe("ENG-100");
    expect(await count()).toBe(before + 100);
  });

  it("is idempotent: the same batch sent twice with one key is created once", async () => {
    const { api, count } = await workspace();
    const before = await count();
    const body = {
      issues: [
        { team: "ENG", title: "Imported 1" },
        { team: "ENG", title: "Imported 2" },
      ],
    };
    const headers = { "Idempotency-Key": "import-2026-11-25-part-1" };
    const first = await api.POST("/issues/batch", { body, headers });
    const second = await api.POST("/issues/batch", { body, headers });
    expect(second.response.status).toBe(201);
    expect(second.response.headers.get("idempotent-replayed")).toBe("true");
    expect(second.data).toEqual(first.data);
    expect(await count()).toBe(before + 2);
  });

  it("numbers two concurrent batches of one team each in one unbroken run", async () => {
    const { api } = await workspace();
    const batch = (name: string) =>
      api.POST("/issues/batch", {
        body: { issues: Array.from({ length: 20 }, (_, i) => ({ team: "ENG", title: `${name} ${i}` })) },
      });
    const [a, b] = await Promise.all([batch("A"), batch("B")]);
    for (const res of [a, b]) {
      const numbers = res.data!.issues.map((i) => Number(i.identifier.split("-")[1]));
      expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => numbers[0]! + i));
    }
    const all = [...a.data!.issues, ...b.data!.issues].map((i) => i.identifier).sort();
    expect(new Set(all).size).toBe(40);
  });

  it("refuses a guest's item in a team the guest has not joined, creating none", async () => {
    const { api, token, count } = await workspace();
    const guest = await srv.addMember(token, "guest");
    const before = await count();
    const res = await srv.client(guest.token).POST("/issues/batch", {
      body: { issues: [{ team: "ENG", title: "Guest" }] },
    });
    expect(res.response.status).toBe(404); // a team a guest has not joined is one the guest cannot see
    expect((res.error as { detail: string }).detail).toMatch(/^Issue 1 of 1: /);
    expect(await count()).toBe(before);
    expect((await api.GET("/issues", { params: { query: { team: "ENG" } } })).data!.issues).toHaveLength(0);
  });

  it("creates each item exactly as POST /issues would: fields, references, labels, activity and events", async () => {
    // The same items created one by one in one workspace and as one batch in another, compared with each
    // workspace's own ids replaced by what a user sees (keys, names, identifiers).
    const setUp = async () => {
      const { api, token, ws } = await workspace();
      const teams = await srv.query<{ id: string; key: string }>(
        "select id, key from teams where workspace_id = $1",
        [ws],
      );
      const eng = teams.find((t) => t.key === "ENG")!;
      const ops = teams.find((t) => t.key === "OPS")!;
      const bob = await srv.addMember(token, "member", `bob-${ws.slice(0, 8)}@example.com`);
      const shared = await addProject(srv, ws, "Shared", [eng.id, ops.id]);
      await addProject(srv, ws, "EngOnly", [eng.id]);
      await addCycle(srv, eng.id, 1, false);
      await addCycle(srv, eng.id, 2, true);
      await api.POST("/labels", { body: { name: "Bug" } });
      const parent = (await api.POST("/issues", { body: { team: "ENG", title: "Existing parent" } })).data!
        .issue;
      const states = (await srv.query<{ id: string; name: string }>(
        "select id, name from workflow_states where team_id = $1",
        [ops.id],
      )) as { id: string; name: string }[];
      const items: IssueCreateInput[] = [
        { team: "ENG", title: "Plain" },
        { team: "OPS", title: "Todo by name", state: "todo", labels: ["bug", "New-one", "NEW-ONE"] },
        {
          team: "ENG",
          title: "Done with fields",
          state: "Done",
          priority: 2,
          estimate: 3,
          dueDate: "2026-12-01",
          description: "Some words",
        },
        { team: "ENG", title: "Mine", assignee: "me", cycle: "current", project: "shared" },
        {
          team: ops.id,
          title: "By ids",
          state: states.find((st) => st.name === "In Progress")!.id,
          assignee: bob.userId,
          project: shared,
        },
        { team: "ENG", title: "Child", parent: parent.identifier, labels: ["new-one", "Another"], cycle: 1 },
        { team: "OPS", title: "Bob's", assignee: bob.email, parent: parent.id, project: "Shared" },
      ];
      const since = Number(
        (await srv.query<{ n: string }>("select coalesce(max(id), 0) as n from change_events"))[0]!.n,
      );
      return { api, ws, items, since, bob };
    };
    const seen = (i: Issue, parents: Map<string, string>) => ({
      identifier: i.identifier,
      ...{ title: i.title, description: i.description, priority: i.priority, estimate: i.estimate },
      dueDate: i.dueDate,
      team: i.team.key,
      state: [i.state.name, i.state.type],
      assignee: i.assignee?.email.replace(/-[0-9a-f]{8}@/, "@") ?? null,
      project: i.project?.name ?? null,
      cycle: i.cycle?.number ?? null,
      labels: i.labels,
      parent: i.parentId ? parents.get(i.parentId) : null,
      completed: i.completedAt !== null,
    });
    const written = async (ws: string, since: number) => ({
      events: await srv.query(
        `select entity, action, identifier, team_key from change_events
          where workspace_id = $1 and id > $2 and entity in ('issue', 'label') order by id`,
        [ws, since],
      ),
      activity: (
        await srv.query<{ payload: { title: string; team: { key: string }; state: { name: string } } }>(
          `select a.payload from activity_events a join issues i on i.id = a.issue_id
            where a.workspace_id = $1 and a.type = 'issue_created' and i.title <> 'Existing parent'
            order by a.created_at`,
          [ws],
        )
      ).map((a) => [a.payload.title, a.payload.team.key, a.payload.state.name]),
      labels: await srv.query("select name, color from labels where workspace_id = $1 order by name", [ws]),
    });

    const one = await setUp();
    const singles: Issue[] = [];
    for (const body of one.items) {
      const res = await one.api.POST("/issues", { body });
      expect(res.response.status).toBe(201);
      singles.push(res.data!.issue);
    }
    const other = await setUp();
    const batch = await other.api.POST("/issues/batch", { body: { issues: other.items } });
    expect(batch.response.status).toBe(201);
    const parentsOf = async (ws: string) =>
      new Map(
        (
          await srv.query<{ id: string; identifier: string }>(
            "select i.id, t.key || '-' || i.number as identifier from issues i join teams t on t.id = i.team_id where i.workspace_id = $1",
            [ws],
          )
        ).map((r) => [r.id, r.identifier]),
      );
    const [p1, p2] = [await parentsOf(one.ws), await parentsOf(other.ws)];
    expect(batch.data!.issues.map((i) => seen(i, p2))).toEqual(singles.map((i) => seen(i, p1)));
    expect(await written(other.ws, other.since)).toEqual(await written(one.ws, one.since));
    // What a later read shows is what the batch answered.
    for (const issue of batch.data!.issues) {
      const read = await other.api.GET("/issues/{identifier}", {
        params: { path: { identifier: issue.identifier } },
      });
      expect(read.data!.issue).toMatchObject(issue);
    }
    expect(await brokenInvariants(srv)).toEqual({});
    expect(await driftedLabelIds(srv)).toEqual([]);
    expect(await driftedProjectCounts(srv)).toEqual([]);
    expect(await driftedTeamStateCounts(srv)).toEqual([]);
  });

  it("numbers interleaved teams in request order per team, with labels and events for every item", async () => {
    const { api, count, ws } = await workspace();
    await api.POST("/teams", { body: { key: "WEB", name: "Web" } });
    const keys = ["ENG", "OPS", "ENG", "WEB", "WEB", "OPS", "ENG"];
    const issues = Array.from({ length: 100 }, (_, i) => ({
      team: keys[i % keys.length]!,
      title: `Item ${i}`,
      labels: [`tag-${i % 3}`, "common"],
    }));
    const before = await count();
    const since = Number(
      (await srv.query<{ n: string }>("select coalesce(max(id), 0) as n from change_events"))[0]!.n,
    );

    // A bad reference in item 57 refuses the whole batch: no issue, label, number or event is left behind.
    const bad = issues.map((i, n) => (n === 56 ? { ...i, assignee: "nobody@example.com" } : i));
    const refused = await api.POST("/issues/batch", { body: { issues: bad } });
    expect(refused.response.status).toBe(404);
    const problem = refused.error as { detail: string; errors: { path: string }[] };
    expect(problem.detail).toBe('Issue 57 of 100: No member "nobody@example.com" in this workspace.');
    expect(problem.errors[0]!.path).toBe("/body/issues/56");
    expect(await count()).toBe(before);
    expect(await srv.query("select 1 from labels where workspace_id = $1", [ws])).toEqual([]);
    expect(
      await srv.query("select 1 from change_events where workspace_id = $1 and id > $2", [ws, since]),
    ).toEqual([]);
    expect(
      await srv.query("select key, issue_counter from teams where workspace_id = $1 and issue_counter <> 0", [
        ws,
      ]),
    ).toEqual([]);

    const res = await api.POST("/issues/batch", { body: { issues } });
    expect(res.response.status).toBe(201);
    const created = res.data!.issues;
    expect(created.map((i) => i.title)).toEqual(issues.map((i) => i.title));
    const next = new Map<string, number>();
    for (const [n, issue] of created.entries()) {
      const key = keys[n % keys.length]!;
      next.set(key, (next.get(key) ?? 0) + 1);
      expect(issue.identifier).toBe(`${key}-${next.get(key)}`);
      expect(issue.labels).toEqual(["common", `tag-${n % 3}`]);
    }
    const events = await srv.query<{ entity: string; identifier: string | null }>(
      "select entity, identifier from change_events where workspace_id = $1 and id > $2 order by id",
      [ws, since],
    );
    // Each issue's event in request order, each new label's right after the first issue naming it.
    expect(events.filter((e) => e.entity === "issue").map((e) => e.identifier)).toEqual(
      created.map((i) => i.identifier),
    );
    expect(events.slice(0, 4).map((e) => e.entity)).toEqual(["issue", "label", "label", "issue"]);
    expect(events.filter((e) => e.entity === "label")).toHaveLength(4);
    const activity = await srv.query<{ n: string }>(
      "select count(*) as n from activity_events where workspace_id = $1 and type = 'issue_created'",
      [ws],
    );
    expect(Number(activity[0]!.n)).toBe(100);
    const list = await api.GET("/issues", { params: { query: { label: ["tag-1"], limit: 100 } } });
    expect(list.data!.issues).toHaveLength(33);
    expect(await driftedLabelIds(srv)).toEqual([]);
    expect(await brokenInvariants(srv)).toEqual({});
  });

  it("never hands a number out twice when batches and single creates of one team run at once", async () => {
    const { api } = await workspace();
    const batch = (name: string) =>
      api.POST("/issues/batch", {
        body: { issues: Array.from({ length: 30 }, (_, i) => ({ team: "ENG", title: `${name} ${i}` })) },
      });
    const singles = Array.from({ length: 30 }, (_, i) =>
      api.POST("/issues", { body: { team: i % 2 ? "ENG" : "OPS", title: `Single ${i}` } }),
    );
    const [a, b, c, ...one] = await Promise.all([batch("A"), batch("B"), batch("C"), ...singles]);
    const identifiers = [
      ...[a, b, c].flatMap((res) => res.data!.issues.map((i) => i.identifier)),
      ...one.map((res) => res.data!.issue.identifier),
    ];
    expect(new Set(identifiers).size).toBe(120);
    for (const res of [a, b, c]) {
      const numbers = res.data!.issues.map((i) => Number(i.identifier.split("-")[1]));
      expect(numbers).toEqual(Array.from({ length: 30 }, (_, i) => numbers[0]! + i));
    }
    const eng = identifiers.filter((i) => i.startsWith("ENG-")).map((i) => Number(i.slice(4)));
    expect(eng.sort((x, y) => x - y)).toEqual(Array.from({ length: 105 }, (_, i) => i + 1));
    expect(await brokenInvariants(srv)).toEqual({});
  });

  it("resolves a parent that an earlier item of the same batch creates, as single creates would", async () => {
    const { api } = await workspace();
    await api.POST("/teams", { body: { key: "NEW", name: "New" } });
    const res = await api.POST("/issues/batch", {
      body: {
        issues: [
          { team: "NEW", title: "Epic" },
          { team: "NEW", title: "Part one", parent: "NEW-1", labels: ["imported"] },
          { team: "ENG", title: "Elsewhere", parent: "new-2" },
        ],
      },
    });
    expect(res.response.status).toBe(201);
    const [epic, part, elsewhere] = res.data!.issues;
    expect(part!.parentId).toBe(epic!.id);
    expect(elsewhere!.parentId).toBe(part!.id);
    expect(part!.labels).toEqual(["imported"]);

    // A parent the batch only creates later is not there yet.
    const later = await api.POST("/issues/batch", {
      body: {
        issues: [
          { team: "NEW", title: "Too early", parent: "NEW-4" },
          { team: "NEW", title: "Would be NEW-4" },
        ],
      },
    });
    expect(later.response.status).toBe(404);
    expect((later.error as { detail: string }).detail).toBe(
      'Issue 1 of 2: No issue "NEW-4" in this workspace.',
    );
  });
});
