import type { components } from "@tracker/sdk/schema";
import { afterEach, describe, expect, it } from "vitest";
import { driftedLabelIds, driftedTeamStateCounts } from "../../../test/derived-counts.js";
import { type ApiClient, useTestServer } from "../../../test/harness.js";
import { addCycle, addProject, addTeam, joinTeam } from "../issue-fixtures.js";

type IssueCreate = components["schemas"]["IssueCreate"];

const srv = useTestServer();

/**
 * A workspace with ENG (default workflow) and OPS, whose workflow shares only some names: "Todo" exists
 * by name, "In Progress" only by type (as "Doing"), "Backlog" only by type (as "Icebox").
 */
async function workspace() {
  const { apiKey, workspace, user } = await srv.bootstrap();
  const eng = await addTeam(srv, workspace.id, "ENG", user.id);
  const ops = await addTeam(srv, workspace.id, "OPS", user.id, {
    states: [
      { name: "Icebox", type: "backlog" },
      { name: "Doing", type: "started" },
      { name: "todo", type: "unstarted" },
      { name: "Shipped", type: "completed" },
      { name: "Dropped", type: "canceled" },
    ],
  });
  return { api: srv.client(apiKey.token), token: apiKey.token, ws: workspace, userId: user.id, eng, ops };
}

async function create(api: ApiClient, body: Partial<IssueCreate> & { title: string }) {
  const res = await api.POST("/issues", { body: { team: "ENG", priority: 0, ...body } });
  if (res.response.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.error)}`);
  return res.data!.issue;
}

const get = (api: ApiClient, identifier: string) =>
  api.GET("/issues/{identifier}", { params: { path: { identifier } } });

describe("moveIssues", () => {
  it("renumbers in the target team and picks the state by name, then by type", async () => {
    const { api, ops } = await workspace();
    await create(api, { team: "OPS", title: "Already there" }); // OPS-1
    const todo = await create(api, { title: "Todo one", state: "Todo" });
    const started = await create(api, { title: "Started", state: "In Progress" });
    const backlog = await create(api, { title: "Backlog" });
    const done = await create(api, { title: "Done", state: "Done" });

    const res = await api.POST("/issues/move", {
      body: {
        identifiers: [todo.identifier, started.identifier, backlog.identifier, done.identifier],
        team: "OPS",
      },
    });
    expect(res.response.status).toBe(200);
    expect(res.data!.moved).toEqual([
      { id: todo.id, from: "ENG-1", to: "OPS-2", droppedCycle: false, clearedProject: false },
      { id: started.id, from: "ENG-2", to: "OPS-3", droppedCycle: false, clearedProject: false },
      { id: backlog.id, from: "ENG-3", to: "OPS-4", droppedCycle: false, clearedProject: false },
      { id: done.id, from: "ENG-4", to: "OPS-5", droppedCycle: false, clearedProject: false },
    ]);
    const states = await Promise.all(
      ["OPS-2", "OPS-3", "OPS-4", "OPS-5"].map(async (id) => (await get(api, id)).data!.issue),
    );
    expect(states.map((i) => [i.team.key, i.state.name, i.state.type])).toEqual([
      ["OPS", "todo", "unstarted"],
      ["OPS", "Doing", "started"],
      ["OPS", "Icebox", "backlog"],
      ["OPS", "Shipped", "completed"],
    ]);
    expect(states[3]!.completedAt).toBe(done.completedAt);
    const rows = await srv.query<{ state_type: string; team_id: string }>(
      "select state_type, team_id from issues where id = $1",
      [started.id],
    );
    expect(rows).toEqual([{ state_type: "started", team_id: ops.id }]);

    // ENG's counter is untouched and its next issue does not reuse a moved number.
    expect((await create(api, { title: "Next" })).identifier).toBe("ENG-5");
  });

  it("keeps the old identifier resolving for reads, updates and comments", async () => {
    const { api } = await workspace();
    const issue = await create(api, { title: "Wanderer" });
    await api.POST("/issues/move", { body: { identifiers: [issue.identifier], team: "OPS" } });

    const read = await get(api, "eng-1");
    expect(read.response.status).toBe(200);
    expect(read.data!.issue).toMatchObject({ id: issue.id, identifier: "OPS-1" });
    const patched = await api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: "ENG-1" } },
      body: { title: "Renamed" },
    });
    expect(patched.data!.issue).toMatchObject({ identifier: "OPS-1", title: "Renamed" });
    const comment = await api.POST("/issues/{identifier}/comments", {
      params: { path: { identifier: "ENG-1" } },
      body: { body: "Still here" },
    });
    expect(comment.response.status).toBe(201);
    const comments = await api.GET("/issues/{identifier}/comments", {
      params: { path: { identifier: "ENG-1" } },
    });
    expect(comments.data!.comments.map((c) => c.body)).toEqual(["Still here"]);
    const page = await api.GET("/issues/{identifier}/page-data", {
      params: { path: { identifier: "ENG-1" } },
    });
    expect(page.data!.issue.identifier).toBe("OPS-1");

    // Moving back gives a new ENG number; both old identifiers still resolve.
    const back = await api.POST("/issues/move", { body: { identifiers: ["ENG-1"], team: "ENG" } });
    expect(back.data!.moved).toEqual([
      { id: issue.id, from: "OPS-1", to: "ENG-2", droppedCycle: false, clearedProject: false },
    ]);
    for (const old of ["ENG-1", "OPS-1", "ENG-2"])
      expect((await get(api, old)).data!.issue.identifier).toBe("ENG-2");
  });

  it("drops the cycle and clears a project that does not include the target team", async () => {
    const { api, ws, eng, ops } = await workspace();
    await addProject(srv, ws.id, "Shared", [eng.id, ops.id]);
    await addProject(srv, ws.id, "EngOnly", [eng.id]);
    await addCycle(srv, eng.id, 1, true);
    const a = await create(api, { title: "A", project: "Shared", cycle: "current" });
    const b = await create(api, { title: "B", project: "EngOnly" });
    const res = await api.POST("/issues/move", {
      body: { identifiers: [a.identifier, b.identifier], team: "OPS" },
    });
    expect(res.data!.moved.map((m) => [m.droppedCycle, m.clearedProject])).toEqual([
      [true, false],
      [false, true],
    ]);
    const [movedA, movedB] = [(await get(api, a.id)).data!.issue, (await get(api, b.id)).data!.issue];
    expect([movedA.cycle, movedA.project?.name]).toEqual([null, "Shared"]);
    expect(movedB.project).toBeNull();
  });

  it("keeps labels, assignee, comments, relations and sub-issues; records issue_moved", async () => {
    const { api, userId, ops } = await workspace();
    const parent = await create(api, { title: "Parent", labels: ["Bug"], assignee: "me" });
    const child = await create(api, { title: "Child", parent: parent.identifier });
    const other = await create(api, { title: "Other" });
    await api.POST("/issues/{identifier}/relations", {
      params: { path: { identifier: parent.identifier } },
      body: { issue: other.identifier, type: "blocks" },
    });
    await api.POST("/issues/{identifier}/comments", {
      params: { path: { identifier: parent.identifier } },
      body: { body: "Kept" },
    });
    await api.POST("/issues/move", { body: { identifiers: [parent.identifier], team: "OPS" } });
    const moved = (await get(api, parent.id)).data!.issue;
    expect(moved).toMatchObject({
      identifier: "OPS-1",
      labels: ["Bug"],
      assignee: { id: userId },
      subIssues: [{ identifier: child.identifier, title: "Child", state: "Backlog" }],
      relations: [
        expect.objectContaining({ type: "blocks", issue: expect.objectContaining({ id: other.id }) }),
      ],
      comments: [expect.objectContaining({ body: "Kept" })],
    });
    expect((await get(api, child.id)).data!.issue).toMatchObject({
      identifier: "ENG-2",
      parentId: parent.id,
    });
    const events = await srv.query<{ payload: unknown }>(
      "select payload from activity_events where issue_id = $1 and type = 'issue_moved'",
      [parent.id],
    );
    expect(events).toEqual([
      {
        payload: {
          from: { identifier: "ENG-1", team: { id: expect.any(String), key: "ENG", name: "Team ENG" } },
          to: { identifier: "OPS-1", team: { id: ops.id, key: "OPS", name: "Team OPS" } },
        },
      },
    ]);
    const changes = await srv.query(
      "select action, identifier, team_key from change_events where entity_id = $1 order by id desc limit 1",
      [parent.id],
    );
    expect(changes).toEqual([{ action: "updated", identifier: "OPS-1", team_key: "OPS" }]);
  });

  it("moves nothing when any identifier is unknown (all or nothing)", async () => {
    const { api, ops } = await workspace();
    const a = await create(api, { title: "A" });
    const b = await create(api, { title: "B" });
    const res = await api.POST("/issues/move", {
      body: { identifiers: [a.identifier, "ENG-404", b.identifier], team: "OPS" },
    });
    expect([res.response.status, res.error?.code]).toEqual([404, "not_found"]);
    const rows = await srv.query<{ key: string; number: number }>(
      "select t.key, i.number from issues i join teams t on t.id = i.team_id where i.id = any($1) order by i.number",
      [[a.id, b.id]],
    );
    expect(rows).toEqual([
      { key: "ENG", number: 1 },
      { key: "ENG", number: 2 },
    ]);
    const [team] = await srv.query<{ issue_counter: number }>(
      "select issue_counter from teams where id = $1",
      [ops.id],
    );
    expect(team!.issue_counter).toBe(0);
    expect(await srv.query("select 1 from issue_redirects where issue_id = any($1)", [[a.id, b.id]])).toEqual(
      [],
    );
    expect(
      await srv.query("select 1 from activity_events where type = 'issue_moved' and issue_id = any($1)", [
        [a.id, b.id],
      ]),
    ).toEqual([]);

    const unknownTeam = await api.POST("/issues/move", {
      body: { identifiers: [a.identifier], team: "NOPE" },
    });
    expect(unknownTeam.response.status).toBe(404);
  });

  it("reports issues already in the target team unchanged", async () => {
    const { api } = await workspace();
    const a = await create(api, { team: "OPS", title: "Home" });
    const res = await api.POST("/issues/move", { body: { identifiers: [a.identifier], team: "OPS" } });
    expect(res.data!.moved).toEqual([
      { id: a.id, from: "OPS-1", to: "OPS-1", droppedCycle: false, clearedProject: false },
    ]);
    expect((await get(api, a.id)).data!.issue.updatedAt).toBe(a.updatedAt);
  });

  it("requires guests to belong to both teams", async () => {
    const { api, token, eng } = await workspace();
    const guest = await srv.addMember(token, "guest");
    await joinTeam(srv, eng.id, guest.userId);
    const issue = await create(api, { title: "Guest's" });
    const res = await srv.client(guest.token).POST("/issues/move", {
      body: { identifiers: [issue.identifier], team: "OPS" },
    });
    expect(res.response.status).toBe(404);
    expect((await get(api, issue.id)).data!.issue.identifier).toBe("ENG-1");
  });
});

// Whatever these tests wrote, the label ids kept on issues (list pages read them) match their labels, and
// the teams' per-state counts (a board's columns read them) match their issues.
afterEach(async () => {
  expect(await driftedLabelIds(srv)).toEqual([]);
  expect(await driftedTeamStateCounts(srv)).toEqual([]);
});
