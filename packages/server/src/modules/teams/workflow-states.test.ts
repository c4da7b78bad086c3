import { afterEach, describe, expect, it } from "vitest";
import { driftedProjectCounts, driftedTeamStateCounts } from "../../test/derived-counts.js";
import { databaseFingerprint } from "../../test/fingerprint.js";
import { type ApiClient, useTestServer } from "../../test/harness.js";

/**
 * A team's workflow states (the contract's createWorkflowState, updateWorkflowState, deleteWorkflowState):
 * each write as allowed, each refusal changing nothing, and the derived data (per-state counts, sort keys,
 * completedAt, history) kept right.
 */

const srv = useTestServer();
afterEach(async () => {
  expect(await driftedTeamStateCounts(srv)).toEqual([]);
  expect(await driftedProjectCounts(srv)).toEqual([]);
  // The `state` sort's key on each issue equals its state's position.
  expect(
    await srv.query(
      "select i.id from issues i join workflow_states s on s.id = i.state_id where i.state_position is distinct from s.position",
    ),
  ).toEqual([]);
});

let n = 0;
async function setup() {
  const { apiKey, workspace } = await srv.bootstrap();
  const admin = srv.client(apiKey.token);
  const key = `W${++n}`;
  const made = await admin.POST("/teams", { body: { key, name: `Workflow ${n}` } });
  expect(made.response.status).toBe(201);
  return { admin, adminToken: apiKey.token, key, ws: workspace };
}

async function states(api: ApiClient, key: string) {
  const res = await api.GET("/teams/{key}/workflows", { params: { path: { key } } });
  return res.data!.states;
}
const names = async (api: ApiClient, key: string) => (await states(api, key)).map((s) => s.name);
const stateId = async (api: ApiClient, key: string, name: string) =>
  (await states(api, key)).find((s) => s.name === name)!.id;

const teamChanges = (wsId: string) =>
  srv.query<{ entity: string; action: string }>(
    "select entity, action from change_events where workspace_id = $1 and entity = 'team' order by id",
    [wsId],
  );

describe("createWorkflowState", () => {
  it("adds a state after the last of its type, or at a position; colors default by type", async () => {
    const { admin, key, ws } = await setup();
    const before = (await teamChanges(ws.id)).length;
    const qa = await admin.POST("/teams/{key}/states", {
      params: { path: { key } },
      body: { name: "QA", type: "started", color: "#ff0000" },
    });
    expect(qa.response.status).toBe(201);
    expect(qa.data!.state).toMatchObject({ name: "QA", type: "started", color: "#ff0000", position: 4 });
    expect(await names(admin, key)).toEqual([
      "Backlog",
      "Todo",
      "In Progress",
      "In Review",
      "QA",
      "Done",
      "Canceled",
    ]);
    const triage = await admin.POST("/teams/{key}/states", {
      params: { path: { key } },
      body: { name: "Triage", type: "backlog", position: 0 },
    });
    expect(triage.data!.state).toMatchObject({ position: 0, color: "#bec2c8" });
    const all = await states(admin, key);
    expect(all.map((s) => s.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(all[0]!.name).toBe("Triage");
    // Past the end: last.
    const last = await admin.POST("/teams/{key}/states", {
      params: { path: { key } },
      body: { name: "Won't do", type: "canceled", position: 99 },
    });
    expect(last.data!.state.position).toBe(8);
    expect((await teamChanges(ws.id)).length).toBe(before + 3);
  });

  it("refuses a taken name (any case), a blank name, a bad type or color, changing nothing", async () => {
    const { admin, key } = await setup();
    const before = await databaseFingerprint(srv);
    const path = { params: { path: { key } } };
    const taken = await admin.POST("/teams/{key}/states", {
      ...path,
      body: { name: "done", type: "completed" },
    });
    expect(taken.response.status).toBe(409);
    expect(taken.error).toMatchObject({ code: "state_name_taken" });
    const blank = await admin.POST("/teams/{key}/states", { ...path, body: { name: "  ", type: "started" } });
    expect(blank.error).toMatchObject({ status: 400, code: "invalid_request" });
    const badType = await admin.POST("/teams/{key}/states", {
      ...path,
      body: { name: "X", type: "doing" as "started" },
    });
    expect(badType.error).toMatchObject({ status: 400, code: "invalid_request" });
    const badColor = await admin.POST("/teams/{key}/states", {
      ...path,
      body: { name: "X", type: "started", color: "red" },
    });
    expect(badColor.error).toMatchObject({ status: 400, code: "invalid_request" });
    const noTeam = await admin.POST("/teams/{key}/states", {
      params: { path: { key: "NOPE" } },
      body: { name: "X", type: "started" },
    });
    expect(noTeam.error).toMatchObject({ status: 404, code: "not_found" });
    expect(await databaseFingerprint(srv)).toBe(before);
  });

  it("lets members of the team, not other members or guests", async () => {
    const { admin, adminToken, key } = await setup();
    const bob = await srv.addMember(adminToken, "member");
    const guest = await srv.addMember(adminToken, "guest");
    const path = { params: { path: { key } } };
    const before = await databaseFingerprint(srv);
    const outside = await srv
      .client(bob.token)
      .POST("/teams/{key}/states", { ...path, body: { name: "Bob's", type: "started" } });
    expect(outside.error).toMatchObject({ status: 403, code: "forbidden" });
    expect(await databaseFingerprint(srv)).toBe(before);
    await admin.POST("/teams/{key}/members", { ...path, body: { userId: bob.userId } });
    await admin.POST("/teams/{key}/members", { ...path, body: { userId: guest.userId } });
    const inside = await srv
      .client(bob.token)
      .POST("/teams/{key}/states", { ...path, body: { name: "Bob's", type: "started" } });
    expect(inside.response.status).toBe(201);
    const asGuest = await srv
      .client(guest.token)
      .POST("/teams/{key}/states", { ...path, body: { name: "Guest's", type: "started" } });
    expect(asGuest.error).toMatchObject({ status: 403, code: "forbidden" });
  });

  it("concurrent adds to one team all land, at distinct positions", async () => {
    const { admin, key } = await setup();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        admin.POST("/teams/{key}/states", {
          params: { path: { key } },
          body: { name: `Parallel ${i}`, type: "started", position: 1 },
        }),
      ),
    );
    expect(results.map((r) => r.response.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const all = await states(admin, key);
    expect(all.map((s) => s.position)).toEqual(all.map((_, i) => i));
    expect(all).toHaveLength(12);
  });
});

describe("updateWorkflowState", () => {
  it("renames, recolors and reorders; issues follow; saved views' state filters follow the rename", async () => {
    const { admin, key } = await setup();
    const issue = await admin.POST("/issues", { body: { team: key, title: "One", state: "Todo" } });
    expect(issue.error).toBeUndefined();
    const view = await admin.POST("/views", {
      body: { name: "Todo of team", filters: { team: key, state: "todo" } },
    });
    expect(view.response.status).toBe(201);
    const todo = await stateId(admin, key, "Todo");
    const res = await admin.PATCH("/teams/{key}/states/{stateId}", {
      params: { path: { key, stateId: todo } },
      body: { name: "Ready", color: "#00ff00", position: 3 },
    });
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({
      ok: true,
      state: { id: todo, name: "Ready", type: "unstarted", color: "#00ff00", position: 3 },
    });
    expect(await names(admin, key)).toEqual([
      "Backlog",
      "In Progress",
      "In Review",
      "Ready",
      "Done",
      "Canceled",
    ]);
    const read = await admin.GET("/issues/{identifier}", {
      params: { path: { identifier: issue.data!.issue.identifier } },
    });
    expect(read.data!.issue.state).toMatchObject({ name: "Ready" });
    const v = (await admin.GET("/views")).data!.views.find((x) => x.id === view.data!.view.id);
    expect(v!.filters).toMatchObject({ state: "Ready" });
    // By name, and a case-only rename of itself.
    const byName = await admin.PATCH("/teams/{key}/states/{stateId}", {
      params: { path: { key, stateId: "ready" } },
      body: { name: "READY", position: 0 },
    });
    expect(byName.data!.state).toMatchObject({ name: "READY", position: 0 });
  });

  it("refuses a taken name, a type change, a state of another team, changing nothing", async () => {
    const { admin, key } = await setup();
    await admin.POST("/teams", { body: { key: `O${n}`, name: `Other ${n}` } });
    const otherDone = await stateId(admin, `O${n}`, "Done");
    const todo = await stateId(admin, key, "Todo");
    const before = await databaseFingerprint(srv);
    const taken = await admin.PATCH("/teams/{key}/states/{stateId}", {
      params: { path: { key, stateId: todo } },
      body: { name: "in progress" },
    });
    expect(taken.error).toMatchObject({ status: 409, code: "state_name_taken" });
    const typed = await admin.PATCH("/teams/{key}/states/{stateId}", {
      params: { path: { key, stateId: todo } },
      body: { type: "started" } as unknown as { name: string },
    });
    expect(typed.error).toMatchObject({ status: 400, code: "invalid_request" });
    const cross = await admin.PATCH("/teams/{key}/states/{stateId}", {
      params: { path: { key, stateId: otherDone } },
      body: { name: "Mine now" },
    });
    expect(cross.error).toMatchObject({ status: 404, code: "not_found" });
    const negative = await admin.PATCH("/teams/{key}/states/{stateId}", {
      params: { path: { key, stateId: todo } },
      body: { position: -1 },
    });
    expect(negative.error).toMatchObject({ status: 400, code: "invalid_request" });
    expect(await databaseFingerprint(srv)).toBe(before);
  });
});

describe("deleteWorkflowState", () => {
  it("moves its issues (counts, completedAt, history, rules) and deletes it", async () => {
    const { admin, key, ws } = await setup();
    const made = [];
    for (const title of ["A", "B", "C"])
      made.push((await admin.POST("/issues", { body: { team: key, title, state: "Done" } })).data!.issue);
    const archived = made[2]!.identifier;
    await admin.POST("/issues/{identifier}/archive", { params: { path: { identifier: archived } } });
    const done = await stateId(admin, key, "Done");
    const rule = await admin.POST("/teams/{key}/workflows", {
      params: { path: { key } },
      body: { trigger: "pr_merged", targetStateId: done },
    });
    const shipped = await admin.POST("/teams/{key}/states", {
      params: { path: { key } },
      body: { name: "Shipped", type: "completed" },
    });
    // Without moveTo while it holds issues: refused, nothing changed.
    const before = await databaseFingerprint(srv);
    const bare = await admin.DELETE("/teams/{key}/states/{stateId}", {
      params: { path: { key, stateId: done } },
    });
    expect(bare.error).toMatchObject({ status: 400, code: "invalid_request" });
    expect(bare.error!.detail).toContain("3 issues");
    const self = await admin.DELETE("/teams/{key}/states/{stateId}", {
      params: { path: { key, stateId: done }, query: { moveTo: "Done" } },
    });
    expect(self.error).toMatchObject({ status: 400, code: "invalid_request" });
    const unknown = await admin.DELETE("/teams/{key}/states/{stateId}", {
      params: { path: { key, stateId: done }, query: { moveTo: "Nowhere" } },
    });
    expect(unknown.error).toMatchObject({ status: 400, code: "invalid_request" });
    expect(await databaseFingerprint(srv)).toBe(before);

    // Into another finished state: completedAt kept.
    const completedAt = made[0]!.completedAt;
    const del = await admin.DELETE("/teams/{key}/states/{stateId}", {
      params: { path: { key, stateId: done }, query: { moveTo: "shipped" } },
    });
    expect(del.data).toEqual({ ok: true, moved: 3 });
    expect(await names(admin, key)).toEqual([
      "Backlog",
      "Todo",
      "In Progress",
      "In Review",
      "Shipped",
      "Canceled",
    ]);
    const a = await admin.GET("/issues/{identifier}", {
      params: { path: { identifier: made[0]!.identifier } },
    });
    expect(a.data!.issue.state).toMatchObject({ name: "Shipped", type: "completed" });
    expect(a.data!.issue.completedAt).toBe(completedAt);
    const history = await admin.GET("/issues/{identifier}/history", {
      params: { path: { identifier: made[0]!.identifier } },
    });
    const moves = history.data!.events.filter((e) => e.type === "state_changed");
    expect(moves.at(-1)!.payload).toMatchObject({ from: { name: "Done" }, to: { name: "Shipped" } });
    const rules = await admin.GET("/teams/{key}/workflows", { params: { path: { key } } });
    expect(rules.data!.workflows).toEqual([{ ...rule.data!, targetStateId: shipped.data!.state.id }]);
    const issueChanges = await srv.query(
      "select identifier from change_events where workspace_id = $1 and entity = 'issue' and action = 'updated' order by id desc limit 3",
      [ws.id],
    );
    expect(issueChanges.map((c) => c.identifier).sort()).toEqual(made.map((i) => i.identifier).sort());

    // Into an open state: completedAt cleared.
    const todo = await admin.DELETE("/teams/{key}/states/{stateId}", {
      params: { path: { key, stateId: "Shipped" }, query: { moveTo: "Todo" } },
    });
    expect(todo.error).toMatchObject({ status: 409, code: "last_state" });
    const again = await admin.POST("/teams/{key}/states", {
      params: { path: { key } },
      body: { name: "Done", type: "completed" },
    });
    expect(again.response.status).toBe(201);
    const reopened = await admin.DELETE("/teams/{key}/states/{stateId}", {
      params: { path: { key, stateId: "Shipped" }, query: { moveTo: "Todo" } },
    });
    expect(reopened.data).toEqual({ ok: true, moved: 3 });
    const b = await admin.GET("/issues/{identifier}", {
      params: { path: { identifier: made[1]!.identifier } },
    });
    expect(b.data!.issue).toMatchObject({ state: { name: "Todo" }, completedAt: null });
    // A rule whose target is deleted without moveTo goes with it.
    const rule2 = await admin.POST("/teams/{key}/workflows", {
      params: { path: { key } },
      body: { trigger: "pr_opened", targetStateId: again.data!.state.id },
    });
    expect(rule2.response.status).toBe(201);
    await admin.POST("/teams/{key}/states", {
      params: { path: { key } },
      body: { name: "Merged", type: "completed" },
    });
    const empty = await admin.DELETE("/teams/{key}/states/{stateId}", {
      params: { path: { key, stateId: again.data!.state.id } },
    });
    expect(empty.data).toEqual({ ok: true, moved: 0 });
    const left = (await admin.GET("/teams/{key}/workflows", { params: { path: { key } } })).data!.workflows;
    expect(left).toEqual([{ ...rule.data!, targetStateId: await stateId(admin, key, "Todo") }]);
  });

  it("keeps one backlog-or-unstarted, one completed and one canceled state", async () => {
    const { admin, key } = await setup();
    expect(
      (await admin.DELETE("/teams/{key}/states/{stateId}", { params: { path: { key, stateId: "Backlog" } } }))
        .data,
    ).toEqual({ ok: true, moved: 0 });
    const before = await databaseFingerprint(srv);
    for (const name of ["Todo", "Done", "Canceled"]) {
      const res = await admin.DELETE("/teams/{key}/states/{stateId}", {
        params: { path: { key, stateId: name } },
      });
      expect(res.error).toMatchObject({ status: 409, code: "last_state" });
      expect(res.error!.detail).toContain(`"${name}" is the last`);
    }
    expect(await databaseFingerprint(srv)).toBe(before);
    // Started states may all go.
    for (const name of ["In Progress", "In Review"])
      await admin.DELETE("/teams/{key}/states/{stateId}", { params: { path: { key, stateId: name } } });
    expect(await names(admin, key)).toEqual(["Todo", "Done", "Canceled"]);
    expect((await states(admin, key)).map((s) => s.position)).toEqual([0, 1, 2]);
  });

  it("refuses people outside the team, changing nothing", async () => {
    const { adminToken, key } = await setup();
    const bob = await srv.addMember(adminToken, "member");
    const before = await databaseFingerprint(srv);
    const res = await srv
      .client(bob.token)
      .DELETE("/teams/{key}/states/{stateId}", { params: { path: { key, stateId: "Backlog" } } });
    expect(res.error).toMatchObject({ status: 403, code: "forbidden" });
    expect(await databaseFingerprint(srv)).toBe(before);
  });
});
