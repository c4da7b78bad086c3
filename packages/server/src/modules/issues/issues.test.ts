import type { components } from "@tracker/sdk/schema";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { driftedLabelIds } from "../../test/derived-counts.js";
import { type ApiClient, useTestServer } from "../../test/harness.js";
import { seedDemoWorkspace } from "../dev/demo-seed.js";
import { addCycle, addProject, addTeam, type FixtureTeam, joinTeam } from "./issue-fixtures.js";

type IssueCreate = components["schemas"]["IssueCreate"];

const srv = useTestServer();

/** A workspace with a team ENG (default workflow), its admin's client and ids. */
async function workspace() {
  const { apiKey, workspace, user } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const states = await srv.query<{ id: string; name: string }>(
    "select s.id, s.name from workflow_states s join teams t on t.id = s.team_id where t.workspace_id = $1",
    [workspace.id],
  );
  const [team] = await srv.query<{ id: string }>("select id from teams where workspace_id = $1", [
    workspace.id,
  ]);
  const eng: FixtureTeam = {
    id: team!.id,
    key: "ENG",
    name: "Engineering",
    states: Object.fromEntries(states.map((s) => [s.name, s.id])),
  };
  return { api: srv.client(apiKey.token), token: apiKey.token, ws: workspace, userId: user.id, eng };
}

async function create(api: ApiClient, body: Partial<IssueCreate> & { title: string }) {
  const res = await api.POST("/issues", { body: { team: "ENG", priority: 0, ...body } });
  if (res.response.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.error)}`);
  return res.data!.issue;
}

const count = async (table: string, where = "true", params: unknown[] = []) =>
  Number((await srv.query<{ n: string }>(`select count(*) as n from ${table} where ${where}`, params))[0]!.n);

const activity = (issueId: string) =>
  srv.query<{ type: string; payload: Record<string, unknown>; actor_id: string | null }>(
    "select type, payload, actor_id from activity_events where issue_id = $1 order by created_at, id",
    [issueId],
  );

describe("createIssue", () => {
  it("numbers the issue in its team and fills the contract's defaults", async () => {
    const { api, userId, eng } = await workspace();
    const res = await api.POST("/issues", { body: { team: "ENG", title: "First", priority: 0 } });
    expect(res.response.status).toBe(201);
    const issue = res.data!.issue;
    expect(issue).toMatchObject({
      identifier: "ENG-1",
      title: "First",
      description: null,
      priority: 0,
      estimate: null,
      dueDate: null,
      team: { id: eng.id, key: "ENG", name: "Engineering" },
      state: { id: eng.states.Backlog, name: "Backlog", type: "backlog" },
      assignee: null,
      project: null,
      cycle: null,
      labels: [],
      parentId: null,
      completedAt: null,
    });
    const [row] = await srv.query<{ creator_id: string; state_type: string }>(
      "select creator_id, state_type from issues where id = $1",
      [issue.id],
    );
    expect(row).toEqual({ creator_id: userId, state_type: "backlog" });
    expect((await create(api, { title: "Second" })).identifier).toBe("ENG-2");
    expect(await activity(issue.id)).toEqual([
      {
        type: "issue_created",
        actor_id: userId,
        payload: {
          title: "First",
          team: { id: eng.id, key: "ENG", name: "Engineering" },
          state: { id: eng.states.Backlog, name: "Backlog", type: "backlog" },
        },
      },
    ]);
    const changes = await srv.query(
      "select entity, action, identifier, team_key, team_id from change_events where entity_id = $1",
      [issue.id],
    );
    expect(changes).toEqual([
      { entity: "issue", action: "created", identifier: "ENG-1", team_key: "ENG", team_id: eng.id },
    ]);
  });

  it("gives 100 concurrent creates 100 distinct consecutive numbers", async () => {
    const { api } = await workspace();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        api.POST("/issues", { body: { team: "ENG", title: `Load ${i}`, priority: 0 } }),
      ),
    );
    expect(results.map((r) => r.response.status)).toEqual(Array(100).fill(201));
    const numbers = results.map((r) => Number(r.data!.issue.identifier.split("-")[1])).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it("resolves every reference: state by name, assignee me, labels, project, current cycle, parent", async () => {
    const { api, ws, userId, eng } = await workspace();
    const projectId = await addProject(srv, ws.id, "Launch", [eng.id]);
    const cycleId = await addCycle(srv, eng.id, 3, true);
    await addCycle(srv, eng.id, 2, false);
    const parent = await create(api, { title: "Parent" });
    const issue = await create(api, {
      title: "Child",
      description: "Details",
      state: "in progress",
      assignee: "me",
      labels: ["Bug", "frontend"],
      project: "launch",
      cycle: "current",
      parent: parent.identifier.toLowerCase(),
      priority: 2,
      estimate: 3,
      dueDate: "2030-01-31",
    });
    expect(issue).toMatchObject({
      description: "Details",
      state: { name: "In Progress", type: "started" },
      assignee: { id: userId },
      labels: ["Bug", "frontend"],
      project: { id: projectId, name: "Launch" },
      cycle: { id: cycleId, number: 3 },
      parentId: parent.id,
      priority: 2,
      estimate: 3,
      dueDate: "2030-01-31",
    });
    const byNumber = await create(api, { title: "Old cycle", cycle: 2 });
    expect(byNumber.cycle?.number).toBe(2);
  });

  it("creates unknown labels on the fly, reusing existing ones case-insensitively", async () => {
    const { api, ws } = await workspace();
    const first = await create(api, { title: "A", labels: ["Bug", "bug", " Backend "] });
    expect(first.labels).toEqual(["Backend", "Bug"]);
    const labels = await srv.query<{ name: string; color: string }>(
      "select name, color from labels where workspace_id = $1 order by name",
      [ws.id],
    );
    expect(labels).toEqual([
      { name: "Backend", color: "#bec2c8" },
      { name: "Bug", color: "#bec2c8" },
    ]);
    const second = await create(api, { title: "B", labels: ["BUG"] });
    expect(second.labels).toEqual(["Bug"]);
    expect(await count("labels", "workspace_id = $1", [ws.id])).toBe(2);
  });

  it("lets concurrent creates introduce the same new label", async () => {
    const { api, ws } = await workspace();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api.POST("/issues", { body: { team: "ENG", title: `L${i}`, priority: 0, labels: ["Brand New"] } }),
      ),
    );
    expect(results.map((r) => r.response.status)).toEqual(Array(8).fill(201));
    expect(await count("labels", "workspace_id = $1 and name = 'Brand New'", [ws.id])).toBe(1);
  });

  it("uses a label another transaction commits while the write waits on it, creating no second one", async () => {
    const { api, ws } = await workspace();
    const issue = await create(api, { title: "Update target" });
    for (const write of [
      () => api.POST("/issues", { body: { team: "ENG", title: "Racer", priority: 0, labels: ["racing"] } }),
      () =>
        api.PATCH("/issues/{identifier}", {
          params: { path: { identifier: issue.identifier } },
          body: { addLabels: ["PACING"] },
        }),
    ]) {
      const name = write.toString().includes("racing") ? "Racing" : "Pacing";
      const other = new pg.Client({ connectionString: srv.databaseUrl });
      await other.connect();
      try {
        await other.query("begin");
        const [label] = (
          await other.query(
            `insert into labels (id, workspace_id, name, color, description, created_at, updated_at)
             values (gen_random_uuid(), $1, $2, '#000000', null, now(), now()) returning id`,
            [ws.id, name],
          )
        ).rows;
        const pending = write();
        // The write's insert of the same name waits for this transaction; commit once it does.
        for (let i = 0; i < 200; i++) {
          const [w] = await srv.query<{ n: string }>(
            "select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
          );
          if (Number(w!.n) > 0) break;
          await new Promise((r) => setTimeout(r, 10));
        }
        await other.query("commit");
        const res = await pending;
        expect(res.response.status).toBeLessThan(300);
        expect(res.data!.issue.labels).toEqual([name]);
        expect(await count("labels", "workspace_id = $1 and lower(name) = lower($2)", [ws.id, name])).toBe(1);
        expect(await count("change_events", "entity = 'label' and entity_id = $1", [label.id])).toBe(0);
      } finally {
        await other.end();
      }
    }
  });

  it("sets completedAt when created in a finished state", async () => {
    const { api } = await workspace();
    const done = await create(api, { title: "Already done", state: "Done" });
    expect(done.completedAt).not.toBeNull();
  });

  it("refuses bad references with the contract's codes and writes nothing", async () => {
    const { api, token, ws, eng } = await workspace();
    await addProject(srv, ws.id, "Elsewhere", []);
    const guest = await srv.addMember(token, "guest");
    const refusals: [Partial<IssueCreate>, number, string][] = [
      [{ state: "Nope" }, 400, "invalid_request"],
      [{ team: "NOPE" }, 404, "not_found"],
      [{ assignee: "nobody@example.com" }, 404, "not_found"],
      [{ assignee: guest.email }, 400, "invalid_request"],
      [{ project: "Missing" }, 404, "not_found"],
      [{ project: "Elsewhere" }, 400, "invalid_request"],
      [{ cycle: "current" }, 400, "invalid_request"],
      [{ cycle: 9 }, 404, "not_found"],
      [{ parent: "ENG-999" }, 404, "not_found"],
      [{ title: "" }, 400, "invalid_request"],
      [{ priority: 7 as 0 }, 400, "invalid_request"],
    ];
    for (const [extra, status, code] of refusals) {
      const res = await api.POST("/issues", {
        body: { team: "ENG", title: "Refused", priority: 0, ...extra },
      });
      expect([JSON.stringify(extra), res.response.status, res.error?.code]).toEqual([
        JSON.stringify(extra),
        status,
        code,
      ]);
    }
    expect(await count("issues", "workspace_id = $1", [ws.id])).toBe(0);
    expect(await count("labels", "workspace_id = $1", [ws.id])).toBe(0);
    const [team] = await srv.query<{ issue_counter: number }>(
      "select issue_counter from teams where id = $1",
      [eng.id],
    );
    expect(team!.issue_counter).toBe(0);
    // A refusal after a label would have been created rolls the label back too.
    const late = await api.POST("/issues", {
      body: { team: "ENG", title: "x", priority: 0, labels: ["Ghost"], state: "Nope" },
    });
    expect(late.response.status).toBe(400);
    expect(await count("labels", "workspace_id = $1", [ws.id])).toBe(0);
  });

  it("lets guests create issues only in the teams they belong to", async () => {
    const { token, ws, userId } = await workspace();
    const guest = await srv.addMember(token, "guest");
    const ops = await addTeam(srv, ws.id, "OPS", userId);
    await joinTeam(srv, ops.id, guest.userId);
    const gapi = srv.client(guest.token);
    const refused = await gapi.POST("/issues", { body: { team: "ENG", title: "No", priority: 0 } });
    expect(refused.response.status).toBe(404);
    expect(refused.error!.code).toBe("not_found");
    const ok = await gapi.POST("/issues", {
      body: { team: "OPS", title: "Yes", priority: 0, assignee: "me" },
    });
    expect(ok.response.status).toBe(201);
    expect(ok.data!.issue.assignee?.id).toBe(guest.userId);
    expect(await count("issues", "workspace_id = $1", [ws.id])).toBe(1);
  });

  it("keeps personal spaces to their owner, for issues and assignees", async () => {
    const { api, token, ws, userId } = await workspace();
    const member = await srv.addMember(token, "member");
    await addTeam(srv, ws.id, "ME", userId, { personal: true });
    const mine = await create(api, { team: "ME", title: "Private", assignee: "me" });
    const mapi = srv.client(member.token);
    const seen = await mapi.GET("/issues/{identifier}", {
      params: { path: { identifier: mine.identifier } },
    });
    expect(seen.response.status).toBe(404);
    const assign = await api.POST("/issues", {
      body: { team: "ME", title: "x", priority: 0, assignee: member.email },
    });
    expect(assign.response.status).toBe(400);
  });
});

describe("updateIssue", () => {
  it("sets completedAt entering a finished state, clears it leaving, and keeps state_type in step", async () => {
    const { api } = await workspace();
    const issue = await create(api, { title: "Work" });
    const path = { params: { path: { identifier: issue.identifier } } };
    const stateType = async () =>
      (await srv.query<{ state_type: string }>("select state_type from issues where id = $1", [issue.id]))[0]!
        .state_type;

    const done = await api.PATCH("/issues/{identifier}", { ...path, body: { state: "Done" } });
    expect(done.data!.issue.state.name).toBe("Done");
    expect(done.data!.issue.completedAt).not.toBeNull();
    expect(await stateType()).toBe("completed");

    const reopened = await api.PATCH("/issues/{identifier}", { ...path, body: { state: "Todo" } });
    expect(reopened.data!.issue.completedAt).toBeNull();
    expect(await stateType()).toBe("unstarted");

    const canceled = await api.PATCH("/issues/{identifier}", { ...path, body: { state: "canceled" } });
    expect(canceled.data!.issue.completedAt).not.toBeNull();
    expect(await stateType()).toBe("canceled");
  });

  it("updates partially, clears with null, bumps updatedAt and records what changed", async () => {
    const { api, ws, userId, eng } = await workspace();
    const projectId = await addProject(srv, ws.id, "Launch", [eng.id]);
    const parent = await create(api, { title: "Parent" });
    const issue = await create(api, {
      title: "Old",
      description: "Text",
      estimate: 2,
      labels: ["Keep", "Drop"],
    });
    const path = { params: { path: { identifier: issue.identifier } } };
    const res = await api.PATCH("/issues/{identifier}", {
      ...path,
      body: {
        title: "New",
        description: null,
        estimate: null,
        dueDate: "2031-05-06",
        priority: 1,
        state: "In Progress",
        assignee: "me",
        project: "Launch",
        parent: parent.identifier,
        addLabels: ["Fresh"],
        removeLabels: ["drop", "absent"],
      },
    });
    expect(res.response.status).toBe(200);
    const updated = res.data!.issue;
    expect(updated).toMatchObject({
      title: "New",
      description: null,
      estimate: null,
      dueDate: "2031-05-06",
      priority: 1,
      state: { name: "In Progress" },
      assignee: { id: userId },
      project: { id: projectId },
      parentId: parent.id,
      labels: ["Fresh", "Keep"],
    });
    expect(updated.updatedAt > issue.updatedAt).toBe(true);
    const events = await activity(issue.id);
    expect(events.map((e) => e.type)).toEqual([
      "issue_created",
      "state_changed",
      "assignee_changed",
      "labels_changed",
      "issue_updated",
    ]);
    expect(events[1]!.payload).toEqual({
      from: { id: eng.states.Backlog, name: "Backlog", type: "backlog" },
      to: { id: eng.states["In Progress"], name: "In Progress", type: "started" },
    });
    expect(events[2]!.payload).toEqual({ from: null, to: { id: userId, name: expect.any(String) } });
    expect(events[3]!.payload).toEqual({ added: ["Fresh"], removed: ["Drop"] });
    expect(events[4]!.payload).toEqual({
      changes: {
        title: { from: "Old", to: "New" },
        description: { from: "Text", to: null },
        estimate: { from: 2, to: null },
        dueDate: { from: null, to: "2031-05-06" },
        priority: { from: 0, to: 1 },
        project: { from: null, to: { id: projectId, name: "Launch" } },
        parent: { from: null, to: parent.identifier },
      },
    });

    const cleared = await api.PATCH("/issues/{identifier}", {
      ...path,
      body: { assignee: null, project: null, parent: null, labels: [], dueDate: null },
    });
    expect(cleared.data!.issue).toMatchObject({
      assignee: null,
      project: null,
      parentId: null,
      labels: [],
      dueDate: null,
    });
  });

  it("records nothing and leaves updatedAt alone for a no-op update", async () => {
    const { api } = await workspace();
    const issue = await create(api, { title: "Same", labels: ["A"], priority: 2 });
    const path = { params: { path: { identifier: issue.identifier } } };
    const before = await count("change_events", "entity_id = $1", [issue.id]);
    for (const body of [{}, { title: "Same", priority: 2 as const, labels: ["a"], state: "Backlog" }]) {
      const res = await api.PATCH("/issues/{identifier}", { ...path, body });
      expect(res.response.status).toBe(200);
      expect(res.data!.issue.updatedAt).toBe(issue.updatedAt);
    }
    expect((await activity(issue.id)).map((e) => e.type)).toEqual(["issue_created"]);
    expect(await count("change_events", "entity_id = $1", [issue.id])).toBe(before);
  });

  it("refuses labels with addLabels, a parent loop, unknown states, and changes nothing", async () => {
    const { api } = await workspace();
    const top = await create(api, { title: "Top" });
    const child = await create(api, { title: "Child", parent: top.identifier });
    const grandchild = await create(api, { title: "Grandchild", parent: child.identifier });
    const path = { params: { path: { identifier: top.identifier } } };
    const refusals = [
      { labels: ["x"], addLabels: ["y"] },
      { parent: grandchild.identifier },
      { parent: top.identifier },
      { state: "Nope", title: "Changed" },
      { title: "Changed", assignee: "ghost@example.com" },
    ];
    for (const body of refusals) {
      const res = await api.PATCH("/issues/{identifier}", { ...path, body });
      expect(res.response.status).toBe(body.assignee ? 404 : 400);
    }
    const after = await api.GET("/issues/{identifier}", path);
    expect(after.data!.issue).toMatchObject({
      title: "Top",
      parentId: null,
      labels: [],
      updatedAt: top.updatedAt,
    });
    expect((await activity(top.id)).map((e) => e.type)).toEqual(["issue_created"]);
    expect(await count("labels", "name in ('x', 'y')")).toBe(0);
  });

  it("answers 404 for issues the caller cannot see", async () => {
    const { api, token, ws, userId } = await workspace();
    const ops = await addTeam(srv, ws.id, "OPS", userId);
    const guest = await srv.addMember(token, "guest");
    await joinTeam(srv, ops.id, guest.userId);
    const issue = await create(api, { title: "Hidden" });
    const gapi = srv.client(guest.token);
    const path = { params: { path: { identifier: issue.identifier } } };
    expect((await gapi.GET("/issues/{identifier}", path)).response.status).toBe(404);
    const patch = await gapi.PATCH("/issues/{identifier}", { ...path, body: { title: "Hacked" } });
    expect(patch.response.status).toBe(404);
    expect(patch.error!.code).toBe("not_found");
    expect((await api.GET("/issues/{identifier}", path)).data!.issue.title).toBe("Hidden");
  });
});

describe("getIssue", () => {
  it("shows comments, sub-issues and relations from the reader's side", async () => {
    const { api, eng } = await workspace();
    const a = await create(api, { title: "A" });
    const b = await create(api, { title: "B", state: "Todo" });
    const c = await create(api, { title: "C" });
    const sub = await create(api, { title: "Sub", parent: a.identifier, state: "Done" });
    await api.POST("/issues/{identifier}/comments", {
      params: { path: { identifier: a.identifier } },
      body: { body: "Hello" },
    });
    const rel = (from: string, issue: string, type: "blocks" | "related" | "duplicate") =>
      api.POST("/issues/{identifier}/relations", {
        params: { path: { identifier: from } },
        body: { issue, type },
      });
    expect((await rel(a.identifier, b.identifier, "blocks")).response.status).toBe(201);
    expect((await rel(c.identifier, a.identifier, "duplicate")).response.status).toBe(201);
    expect((await rel(b.identifier, c.identifier, "related")).response.status).toBe(201);

    const got = (await api.GET("/issues/{identifier}", { params: { path: { identifier: a.identifier } } }))
      .data!.issue;
    expect(got.identifier).toBe(a.identifier);
    expect(got.comments).toEqual([
      expect.objectContaining({
        body: "Hello",
        edited: false,
        author: expect.objectContaining({ id: expect.any(String) }),
      }),
    ]);
    expect(got.subIssues).toEqual([{ identifier: sub.identifier, title: "Sub", state: "Done" }]);
    expect(got.relations.map((r) => [r.type, r.issue.identifier])).toEqual([
      ["blocks", b.identifier],
      ["duplicated_by", c.identifier],
    ]);
    expect(got.relations[0]!.issue).toEqual({
      id: b.id,
      identifier: b.identifier,
      title: "B",
      state: { id: eng.states.Todo, name: "Todo", type: "unstarted" },
    });

    const fromB = await api.GET("/issues/{identifier}/relations", {
      params: { path: { identifier: b.identifier } },
    });
    expect(fromB.data!.relations.map((r) => [r.type, r.issue.identifier])).toEqual([
      ["blocked_by", a.identifier],
      ["related", c.identifier],
    ]);
    const fromC = await api.GET("/issues/{identifier}/relations", {
      params: { path: { identifier: c.identifier } },
    });
    expect(fromC.data!.relations.map((r) => [r.type, r.issue.identifier])).toEqual([
      ["duplicate", a.identifier],
      ["related", b.identifier],
    ]);
  });
});

describe("relations", () => {
  it("refuses self, duplicate and reverse relations with 400/409, and deletes from either side", async () => {
    const { api } = await workspace();
    const a = await create(api, { title: "A" });
    const b = await create(api, { title: "B" });
    const rel = (from: string, issue: string, type: "blocks" | "related" | "duplicate") =>
      api.POST("/issues/{identifier}/relations", {
        params: { path: { identifier: from } },
        body: { issue, type },
      });

    const self = await rel(a.identifier, a.identifier, "related");
    expect([self.response.status, self.error?.code]).toEqual([400, "invalid_request"]);
    const created = await rel(a.identifier, b.identifier, "related");
    expect(created.response.status).toBe(201);
    expect(created.data!.relation).toMatchObject({ type: "related", issue: { identifier: b.identifier } });
    for (const [from, to, type] of [
      [a, b, "related"],
      [b, a, "related"],
    ] as const) {
      const again = await rel(from.identifier, to.identifier, type);
      expect([again.response.status, again.error?.code]).toEqual([409, "conflict"]);
    }
    expect((await rel(a.identifier, b.identifier, "blocks")).response.status).toBe(201);
    const mutual = await rel(b.identifier, a.identifier, "blocks");
    expect([mutual.response.status, mutual.error?.code]).toEqual([409, "conflict"]);
    const unknown = await rel(a.identifier, "ENG-99", "blocks");
    expect(unknown.response.status).toBe(404);
    expect(await count("issue_relations", "issue_id = any($1)", [[a.id, b.id]])).toBe(2);

    const c = await create(api, { title: "C" });
    const relationId = created.data!.relation.id;
    const wrongIssue = await api.DELETE("/issues/{identifier}/relations/{relationId}", {
      params: { path: { identifier: c.identifier, relationId } },
    });
    expect(wrongIssue.response.status).toBe(404);
    const bogus = await api.DELETE("/issues/{identifier}/relations/{relationId}", {
      params: { path: { identifier: b.identifier, relationId: "not-an-id" } },
    });
    expect(bogus.response.status).toBe(404);
    const deleted = await api.DELETE("/issues/{identifier}/relations/{relationId}", {
      params: { path: { identifier: b.identifier, relationId } },
    });
    expect(deleted.data).toEqual({ ok: true });
    const left = await api.GET("/issues/{identifier}/relations", {
      params: { path: { identifier: a.identifier } },
    });
    expect(left.data!.relations.map((r) => r.type)).toEqual(["blocks"]);
    const changes = await srv.query<{ action: string }>(
      "select action from change_events where entity = 'issue_relation' and entity_id = $1 order by id",
      [relationId],
    );
    expect(changes.map((c) => c.action)).toEqual(["created", "deleted"]);
  });

  it("leaves out relations to issues the caller cannot see", async () => {
    const { api, token, ws, userId } = await workspace();
    const ops = await addTeam(srv, ws.id, "OPS", userId);
    const guest = await srv.addMember(token, "guest");
    await joinTeam(srv, ops.id, guest.userId);
    const visible = await create(api, { team: "OPS", title: "Visible" });
    const hidden = await create(api, { title: "Hidden" });
    await api.POST("/issues/{identifier}/relations", {
      params: { path: { identifier: hidden.identifier } },
      body: { issue: visible.identifier, type: "blocks" },
    });
    const seen = await srv.client(guest.token).GET("/issues/{identifier}/relations", {
      params: { path: { identifier: visible.identifier } },
    });
    expect(seen.data!.relations).toEqual([]);
  });
});

describe("links", () => {
  it("attaches http(s) links, refuses other schemes and repeats", async () => {
    const { api } = await workspace();
    const issue = await create(api, { title: "Linked" });
    const path = { params: { path: { identifier: issue.identifier } } };
    const ok = await api.POST("/issues/{identifier}/links", {
      ...path,
      body: { url: "https://example.com/pr/1" },
    });
    expect(ok.response.status).toBe(201);
    expect(ok.data!.link).toEqual({ id: expect.any(String), url: "https://example.com/pr/1", title: null });
    const again = await api.POST("/issues/{identifier}/links", {
      ...path,
      body: { url: "https://example.com/pr/1" },
    });
    expect([again.response.status, again.error?.code]).toEqual([409, "conflict"]);
    for (const url of ["ftp://example.com/x", "javascript:alert(1)", "not a url"]) {
      const bad = await api.POST("/issues/{identifier}/links", { ...path, body: { url } });
      expect([url, bad.response.status]).toEqual([url, 400]);
    }
    expect(await count("issue_links", "issue_id = $1", [issue.id])).toBe(1);
  });
});

describe("getIssuePageData", () => {
  it("returns every key the issue page renders", async () => {
    const { api, token, ws, userId } = await workspace();
    const web = await addTeam(srv, ws.id, "WEB", userId, { estimateScale: "tshirt" });
    const guestOut = await srv.addMember(token, "guest");
    const guestIn = await srv.addMember(token, "guest");
    await joinTeam(srv, web.id, guestIn.userId);
    const member = await srv.addMember(token, "member");
    const projectId = await addProject(srv, ws.id, "Site", [web.id]);
    await addProject(srv, ws.id, "Other", []);
    const old = await addCycle(srv, web.id, 1, false);
    const cur = await addCycle(srv, web.id, 2, true);
    const parent = await create(api, { team: "WEB", title: "Parent" });
    const issue = await create(api, {
      team: "WEB",
      title: "Page",
      parent: parent.identifier,
      labels: ["UI"],
      project: "Site",
      cycle: 2,
      estimate: 3,
    });
    const blocker = await create(api, { team: "WEB", title: "Blocker", state: "In Progress" });
    const doneBlocker = await create(api, { team: "WEB", title: "Done blocker", state: "Done" });
    const sub = await create(api, { team: "WEB", title: "Sub", parent: issue.identifier });
    for (const b of [blocker, doneBlocker])
      await api.POST("/issues/{identifier}/relations", {
        params: { path: { identifier: b.identifier } },
        body: { issue: issue.identifier, type: "blocks" },
      });
    const path = { params: { path: { identifier: issue.identifier } } };
    await api.POST("/issues/{identifier}/comments", { ...path, body: { body: "Note" } });
    await api.POST("/issues/{identifier}/links", {
      ...path,
      body: { url: "https://example.com", title: "Spec" },
    });
    const docId = "00000000-0000-4000-8000-00000000d0c1";
    await srv.query(
      "insert into documents (id, workspace_id, team_id, title, created_at, updated_at) values ($1, $2, $3, 'Design', now(), now())",
      [docId, ws.id, web.id],
    );
    await srv.query("insert into document_issues (document_id, issue_id) values ($1, $2)", [docId, issue.id]);

    const res = await api.GET("/issues/{identifier}/page-data", path);
    expect(res.response.status).toBe(200);
    const page = res.data!;
    expect(page.issue).toMatchObject({
      id: issue.id,
      identifier: issue.identifier,
      path: `/${ws.slug}/issue/${issue.identifier}`,
      title: "Page",
      estimate: 3,
      stateId: web.states.Backlog,
      assigneeId: null,
      projectId,
      cycleId: cur,
      completedAt: null,
      parent: { identifier: parent.identifier, team: { key: "WEB" } },
      labels: [{ name: "UI", color: "#bec2c8" }],
      team: { id: web.id, key: "WEB", name: web.name, cyclesEnabled: true },
    });
    expect(page.issue.team.states.map((s) => s.name)).toEqual([
      "Backlog",
      "Todo",
      "In Progress",
      "In Review",
      "Done",
      "Canceled",
    ]);
    expect(page.estimates).toEqual([
      { value: 1, label: "XS" },
      { value: 2, label: "S" },
      { value: 3, label: "M" },
      { value: 5, label: "L" },
      { value: 8, label: "XL" },
    ]);
    expect(page.members.map((m) => m.id).sort()).toEqual([userId, guestIn.userId, member.userId].sort());
    expect(page.members.map((m) => m.id)).not.toContain(guestOut.userId);
    expect(page.projects).toEqual([{ id: projectId, name: "Site" }]);
    expect(page.cycles).toEqual([
      { id: cur, number: 2, name: "Cycle 2" },
      { id: old, number: 1, name: "Cycle 1" },
    ]);
    expect(page.comments).toEqual([
      {
        id: expect.any(String),
        body: "Note",
        authorId: userId,
        authorName: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    expect(page.subIssues).toEqual([
      {
        id: sub.id,
        team: { key: "WEB" },
        number: Number(sub.identifier.split("-")[1]),
        title: "Sub",
        state: { name: "Backlog", type: "backlog", color: "#bec2c8" },
      },
    ]);
    expect(page.documents).toEqual([{ documentId: docId, document: { id: docId, title: "Design" } }]);
    expect(page.relations.map((r) => [r.type, r.issue.identifier])).toEqual([
      ["blocked_by", blocker.identifier],
      ["blocked_by", doneBlocker.identifier],
    ]);
    expect(page.blockedByOpen).toEqual([
      {
        id: blocker.id,
        identifier: blocker.identifier,
        title: "Blocker",
        state: { id: web.states["In Progress"], name: "In Progress", type: "started" },
      },
    ]);
    expect(page.media).toEqual([]);
    expect(page.links).toEqual([{ id: expect.any(String), url: "https://example.com", title: "Spec" }]);

    const eng = await create(api, { title: "No scale" });
    const plain = await api.GET("/issues/{identifier}/page-data", {
      params: { path: { identifier: eng.identifier } },
    });
    expect(plain.data!).toMatchObject({ estimates: [], cycles: [], projects: [] });
    expect(plain.data!.issue.parent).toBeNull();
  });
});

describe("demo seed", () => {
  it("gives the demo workspace a few issues in several states, labels and one blocked issue", async () => {
    const demo = await seedDemoWorkspace(srv.running.orm.em.fork(), {
      email: "demo-issues@example.com",
      name: "Demo Issues",
    });
    const api = srv.client(demo.apiKey.token);
    const issues = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(
        async (n) =>
          (await api.GET("/issues/{identifier}", { params: { path: { identifier: `ENG-${n}` } } })).data!
            .issue,
      ),
    );
    expect(new Set(issues.map((i) => i.state.type))).toEqual(
      new Set(["completed", "started", "unstarted", "backlog"]),
    );
    expect(issues.every((i) => i.labels.length > 0)).toBe(true);
    expect(issues[0]!.completedAt).not.toBeNull();
    const blocked = issues.find((i) => i.relations.some((r) => r.type === "blocked_by"));
    expect(blocked?.title).toBe("Ship the onboarding checklist");
    expect(issues[1]!.comments).toHaveLength(1);
  });
});

// Whatever these tests wrote, the label ids kept on issues (list pages read them) match their labels.
afterEach(async () => {
  expect(await driftedLabelIds(srv)).toEqual([]);
});
