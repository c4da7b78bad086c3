import { randomUUID } from "node:crypto";
import type { components, operations } from "@tracker/sdk/schema";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { driftedLabelIds, driftedProjectTeamIds } from "../../test/derived-counts.js";
import { type ApiClient, useTestServer } from "../../test/harness.js";
import {
  addIssues,
  addTeam,
  age,
  day,
  type FixtureTeam,
  planningWorkspace,
  snapshot,
} from "../projects/planning.fixtures.js";

type InitiativeCreate = components["schemas"]["InitiativeCreate"];
type ListQuery = NonNullable<operations["listInitiatives"]["parameters"]["query"]>;

const srv = useTestServer();

const workspace = () => planningWorkspace(srv);

async function initiative(api: ApiClient, body: Partial<InitiativeCreate> & { name: string }) {
  const res = await api.POST("/initiatives", { body: { status: "planned", ...body } });
  if (res.response.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.error)}`);
  return res.data!.initiative;
}

/** A project of the initiative with one issue per state given, in `team`. */
async function project(
  api: ApiClient,
  wsId: string,
  team: FixtureTeam,
  name: string,
  initiativeName: string | null,
  status: components["schemas"]["ProjectStatus"],
  issues: string[],
) {
  const res = await api.POST("/projects", {
    body: { name, teams: [team.key], status, initiative: initiativeName },
  });
  if (res.response.status !== 201) throw new Error(`project failed: ${JSON.stringify(res.error)}`);
  await addIssues(srv, wsId, team, res.data!.project.id, issues);
  return res.data!.project.id;
}

async function names(api: ApiClient, query: ListQuery = {}) {
  const res = await api.GET("/initiatives", { params: { query: { sort: "name", ...query } } });
  if (res.response.status !== 200) throw new Error(`list failed: ${JSON.stringify(res.error)}`);
  return res.data!.initiatives.map((i) => i.name);
}

describe("initiative create, update and page data", () => {
  it("creates and updates, refusing taken names and guests", async () => {
    const { api, token, ws, user } = await workspace();
    const created = await api.POST("/initiatives", {
      body: { name: "Moonshot", status: "active", lead: "me", description: "Big", targetDate: day(30) },
    });
    expect(created.response.status).toBe(201);
    const ini = created.data!.initiative;
    expect(ini).toEqual({
      id: expect.any(String),
      name: "Moonshot",
      status: "active",
      description: "Big",
      leadId: user.id,
      targetDate: day(30),
    });
    const dup = await api.POST("/initiatives", { body: { name: "moonSHOT", status: "planned" } });
    expect(dup.response.status).toBe(409);
    expect(dup.error?.code).toBe("conflict");
    await initiative(api, { name: "Other" });
    const renameTaken = await api.PATCH("/initiatives/{id}", {
      params: { path: { id: ini.id } },
      body: { name: "OTHER" },
    });
    expect(renameTaken.response.status).toBe(409);

    const updated = await api.PATCH("/initiatives/{id}", {
      params: { path: { id: "moonshot" } },
      body: { name: "Moonshot 2", lead: null, targetDate: null, status: "completed" },
    });
    expect(updated.data!.initiative).toEqual({
      id: ini.id,
      name: "Moonshot 2",
      status: "completed",
      description: "Big",
      leadId: null,
      targetDate: null,
    });
    const page = await api.GET("/initiatives/{id}/page-data", { params: { path: { id: "Moonshot 2" } } });
    expect(page.data).toEqual({ initiative: { id: ini.id, leadId: null } });
    const missing = await api.GET("/initiatives/{id}/page-data", { params: { path: { id: "Moonshot" } } });
    expect(missing.response.status).toBe(404);

    const guest = srv.client((await srv.addMember(token, "guest")).token);
    const gCreate = await guest.POST("/initiatives", { body: { name: "Guest's", status: "planned" } });
    expect(gCreate.response.status).toBe(403);
    expect(gCreate.error?.code).toBe("forbidden");
    const gUpdate = await guest.PATCH("/initiatives/{id}", {
      params: { path: { id: ini.id } },
      body: { name: "x" },
    });
    expect([403, 404]).toContain(gUpdate.response.status);
    const rows = await srv.query("select name from initiatives where workspace_id = $1 order by name", [
      ws.id,
    ]);
    expect(rows).toEqual([{ name: "Moonshot 2" }, { name: "Other" }]);
    const changes = await srv.query(
      "select action from change_events where entity = 'initiative' and entity_id = $1 order by id",
      [ini.id],
    );
    expect(changes).toEqual([{ action: "created" }, { action: "updated" }]);
  });

  it("shows guests only initiatives holding a project they may see, with only those projects", async () => {
    const { api, token, ws, eng, ops } = await workspace();
    const guest = await srv.addMember(token, "guest");
    await srv.query(
      "insert into team_members (id, team_id, user_id, created_at) values ($1, $2, $3, now())",
      [randomUUID(), ops.id, guest.userId],
    );
    await initiative(api, { name: "Mixed" });
    await initiative(api, { name: "Eng only" });
    await project(api, ws.id, ops, "Ops part", "Mixed", "started", ["Done"]);
    await project(api, ws.id, eng, "Eng part", "Mixed", "started", ["Todo"]);
    await project(api, ws.id, eng, "Hidden", "Eng only", "started", []);
    const g = srv.client(guest.token);
    const res = await g.GET("/initiatives", {});
    expect(res.data!.initiatives.map((i) => [i.name, i.projects.map((p) => p.name)])).toEqual([
      ["Mixed", ["Ops part"]],
    ]);
    const hidden = await g.GET("/initiatives/{id}/page-data", { params: { path: { id: "Eng only" } } });
    expect(hidden.response.status).toBe(404);
    expect(await names(api)).toEqual(["Eng only", "Mixed"]);
  });
});

describe("initiative progress and health", () => {
  it("sums progress over counted projects, counts the excluded ones, and computes each health branch", async () => {
    const { api, ws, eng } = await workspace();
    const mk = async (name: string, targetDate: string | null, projects: [string, string[]][]) => {
      const ini = await initiative(api, { name, status: "active", targetDate });
      // Measured from creation: ten days ago, so half of a target ten days ahead has elapsed.
      await age(srv, "initiatives", ini.id, { createdDaysAgo: 10 });
      for (const [i, [status, issues]] of projects.entries()) {
        await project(
          api,
          ws.id,
          eng,
          `${name} ${i}`,
          name,
          status as components["schemas"]["ProjectStatus"],
          issues,
        );
      }
    };
    await mk("Counted", day(10), [
      ["started", ["Done", "Todo"]],
      ["planned", ["Done", "Done", "Canceled"]],
      ["paused", ["Todo", "Todo"]],
      ["canceled", []],
    ]);
    await mk("At risk", day(10), [["started", ["Done", "Todo", "Todo"]]]);
    await mk("Off track", day(10), [["started", ["Todo"]]]);
    await mk("Late", day(-1), [["started", [...Array(9).fill("Done"), "Todo"]]]);
    await mk("No target", null, [["started", ["Todo"]]]);

    const res = await api.GET("/initiatives", { params: { query: { sort: "name" } } });
    const by = Object.fromEntries(res.data!.initiatives.map((i) => [i.name, i]));
    expect(by.Counted!.progress).toEqual({ done: 3, total: 4, percent: 75, excludedProjects: 2 });
    expect(by.Counted!.health).toBe("on_track");
    expect(by.Counted!.projects).toEqual([
      {
        id: expect.any(String),
        name: "Counted 0",
        status: "started",
        progress: { done: 1, total: 2, percent: 50, excludedProjects: 0 },
      },
      {
        id: expect.any(String),
        name: "Counted 1",
        status: "planned",
        progress: { done: 2, total: 2, percent: 100, excludedProjects: 0 },
      },
      {
        id: expect.any(String),
        name: "Counted 2",
        status: "paused",
        progress: { done: 0, total: 2, percent: 0, excludedProjects: 0 },
      },
      {
        id: expect.any(String),
        name: "Counted 3",
        status: "canceled",
        progress: { done: 0, total: 0, percent: 0, excludedProjects: 0 },
      },
    ]);
    expect([by["At risk"]!.progress.percent, by["At risk"]!.health]).toEqual([33, "at_risk"]);
    expect([by["Off track"]!.progress.percent, by["Off track"]!.health]).toEqual([0, "off_track"]);
    expect([by.Late!.progress.percent, by.Late!.health]).toEqual([90, "off_track"]);
    expect([by["No target"]!.progress.percent, by["No target"]!.health]).toEqual([0, "on_track"]);
    expect(by.Counted!.lead).toBeNull();
    expect(await names(api, { health: ["off_track", "at_risk"] })).toEqual(["At risk", "Late", "Off track"]);
  });
});

describe("listInitiatives filters, sorting and paging", () => {
  it("applies status, lead, health and every special filter", async () => {
    const { api, token, ws, user, eng } = await workspace();
    const member = await srv.addMember(token, "member");
    const ids: Record<string, string> = {};
    const mk = async (name: string, body: Partial<InitiativeCreate>) => {
      ids[name] = (await initiative(api, { name, ...body })).id;
    };
    await mk("Late", { status: "active", targetDate: day(-3), lead: "me" });
    await mk("Finished", { status: "completed", targetDate: day(-3) });
    await mk("Quarter", { status: "planned", targetDate: day(0) });
    await mk("Empty", { status: "planned", lead: member.email });
    await mk("Paused only", { status: "active" });
    await mk("Stale", { status: "active" });
    await mk("Updated", { status: "active" });
    await project(api, ws.id, eng, "PA", "Late", "started", ["Todo"]);
    await project(api, ws.id, eng, "PB", "Finished", "completed", ["Done"]);
    await project(api, ws.id, eng, "PC", "Quarter", "planned", ["Done"]);
    await project(api, ws.id, eng, "PD", "Paused only", "paused", ["Todo"]);
    const pe = await project(api, ws.id, eng, "PE", "Stale", "started", ["Todo"]);
    await project(api, ws.id, eng, "PF", "Updated", "planned", ["Done"]);
    await project(api, ws.id, eng, "PG", "Updated", "canceled", []);
    await age(srv, "initiatives", ids["Paused only"]!, { createdDaysAgo: 10 });
    await age(srv, "initiatives", ids.Stale!, { createdDaysAgo: 20, updatedDaysAgo: 20 });
    await age(srv, "projects", pe, { updatedDaysAgo: 20 });
    await srv.query("update issues set updated_at = now() - interval '20 days' where project_id = $1", [pe]);
    await age(srv, "initiatives", ids.Updated!, { createdDaysAgo: 10 });
    for (const [name, ago] of [
      ["Stale", 1],
      ["Updated", 2],
    ] as const) {
      await srv.query(
        `insert into status_updates (id, workspace_id, initiative_id, title, content, health, creator_id, created_at)
         values ($1, $2, $3, 'Update', 'Fine', 'on_track', $4, now() - $5 * interval '1 day')`,
        [randomUUID(), ws.id, ids[name], user.id, ago],
      );
    }

    const quarter = (d: string) => `${d.slice(0, 4)}Q${Math.floor((Number(d.slice(5, 7)) - 1) / 3)}`;
    const cases: [ListQuery, string[]][] = [
      [{ status: ["planned", "completed"] }, ["Empty", "Finished", "Quarter"]],
      [{ lead: [user.id] }, ["Late"]],
      [
        { lead: ["none", member.userId] },
        ["Empty", "Finished", "Paused only", "Quarter", "Stale", "Updated"],
      ],
      [{ health: ["off_track"] }, ["Late"]],
      [{ special: ["overdue"] }, ["Late"]],
      [
        { special: ["due_quarter"] },
        quarter(day(-3)) === quarter(day(0)) ? ["Late", "Quarter"] : ["Quarter"],
      ],
      [{ special: ["no_target_date"] }, ["Empty", "Paused only", "Stale", "Updated"]],
      [{ special: ["stale"] }, ["Stale"]],
      [{ special: ["no_lead"] }, ["Finished", "Paused only", "Quarter", "Stale", "Updated"]],
      [{ special: ["no_projects"] }, ["Empty"]],
      [{ special: ["no_counted_work"] }, ["Empty", "Paused only"]],
      [{ special: ["update_overdue"] }, ["Paused only"]],
      [{ special: ["off_track"] }, ["Late"]],
      [{ special: ["has_excluded"] }, ["Paused only", "Updated"]],
      [{ special: ["led_by_me"] }, ["Late"]],
      [{ special: ["has_excluded", "no_counted_work"] }, ["Paused only"]],
      [{ status: ["active"], special: ["no_target_date"] }, ["Paused only", "Stale", "Updated"]],
    ];
    for (const [query, expected] of cases) {
      expect({ query, got: await names(api, query) }).toEqual({ query, got: expected });
    }
  });

  describe("sorting", () => {
    let api: ApiClient;
    beforeAll(async () => {
      const w = await workspace();
      api = w.api;
      const mk = async (
        name: string,
        status: InitiativeCreate["status"],
        targetDate: string | null,
        projects: string[][],
        updatedDaysAgo: number,
      ) => {
        const ini = await initiative(api, { name, status, targetDate });
        for (const [i, issues] of projects.entries()) {
          await project(api, w.ws.id, w.eng, `${name} ${i}`, name, "started", issues);
        }
        await age(srv, "initiatives", ini.id, { updatedDaysAgo });
      };
      await mk("Alpha", "active", day(5), [["Done"], ["Todo"]], 1);
      await mk("Bravo", "planned", null, [], 2);
      await mk("Charlie", "canceled", day(-2), [["Todo"]], 3);
      await mk("Delta", "completed", day(20), [["Done"], ["Done"], ["Done"]], 4);
    });

    it.each([
      [undefined, ["Alpha", "Bravo", "Charlie", "Delta"]],
      ["name", ["Alpha", "Bravo", "Charlie", "Delta"]],
      ["-name", ["Delta", "Charlie", "Bravo", "Alpha"]],
      ["target", ["Charlie", "Alpha", "Delta", "Bravo"]],
      ["-target", ["Bravo", "Delta", "Alpha", "Charlie"]],
      ["health", ["Charlie", "Alpha", "Bravo", "Delta"]],
      ["-health", ["Alpha", "Bravo", "Delta", "Charlie"]],
      ["status", ["Bravo", "Alpha", "Delta", "Charlie"]],
      ["-status", ["Charlie", "Delta", "Alpha", "Bravo"]],
      ["updated", ["Delta", "Charlie", "Bravo", "Alpha"]],
      ["-updated", ["Alpha", "Bravo", "Charlie", "Delta"]],
      ["progress", ["Bravo", "Charlie", "Alpha", "Delta"]],
      ["-progress", ["Delta", "Alpha", "Bravo", "Charlie"]],
      ["projects", ["Bravo", "Charlie", "Alpha", "Delta"]],
      ["-projects", ["Delta", "Alpha", "Charlie", "Bravo"]],
    ] as [ListQuery["sort"], string[]][])("sort %s", async (sort, expected) => {
      const res = await api.GET("/initiatives", { params: { query: sort ? { sort } : {} } });
      expect(res.data!.initiatives.map((i) => i.name)).toEqual(expected);
    });

    it("pages with limit, offset and nextOffset", async () => {
      const first = await api.GET("/initiatives", { params: { query: { sort: "name", limit: 3 } } });
      expect(first.data!.initiatives.map((i) => i.name)).toEqual(["Alpha", "Bravo", "Charlie"]);
      expect(first.data!.nextOffset).toBe(3);
      const rest = await api.GET("/initiatives", {
        params: { query: { sort: "name", limit: 3, offset: 3 } },
      });
      expect(rest.data!.initiatives.map((i) => i.name)).toEqual(["Delta"]);
      expect(rest.data!.nextOffset).toBeNull();
    });
  });
});

describe("moveInitiative", () => {
  async function world() {
    const w = await workspace();
    const target = (await srv.bootstrap({ email: w.user.email, name: w.user.name })).workspace;
    const dst = await addTeam(srv, target.id, "DST", [w.user.id]);
    const api = srv.client(w.token, { "X-Service-Workspace": w.ws.slug });
    const ini = await initiative(api, {
      name: "Moonshot",
      status: "active",
      lead: "me",
      description: "Far",
      targetDate: day(30),
    });
    const alpha = await project(api, w.ws.id, w.eng, "Alpha", "Moonshot", "started", ["Done", "Todo"]);
    const beta = await project(api, w.ws.id, w.ops, "Beta", "Moonshot", "planned", ["In Progress"]);
    return { ...w, api, target, dst, ini, alpha, beta };
  }

  it("recreates the initiative in the target with its projects and issues, and cancels the original", async () => {
    const w = await world();
    const res = await w.api.POST("/initiatives/{id}/move", {
      params: { path: { id: "moonshot" } },
      body: { workspace: w.target.slug, team: "DST" },
    });
    expect(res.response.status).toBe(200);
    const moved = res.data!.moved as {
      initiative: { id: string; workspace: unknown };
      original: unknown;
      projects: number;
      issues: number;
      projectMoves: { project: { name: string }; identifiers: unknown[] }[];
    };
    expect(moved).toMatchObject({
      initiative: { workspace: w.target },
      original: { id: w.ini.id, status: "canceled" },
      teamKey: "DST",
      projects: 2,
      issues: 3,
    });
    expect(moved.projectMoves.map((m) => [m.project.name, m.identifiers])).toEqual([
      [
        "Alpha",
        [
          { from: "ENG-1", to: "DST-1" },
          { from: "ENG-2", to: "DST-2" },
        ],
      ],
      ["Beta", [{ from: "OPS-1", to: "DST-3" }]],
    ]);

    const original = await w.api.GET("/initiatives", {});
    expect(original.data!.initiatives.map((i) => [i.name, i.status, i.projects])).toEqual([
      ["Moonshot", "canceled", []],
    ]);
    const there = srv.client(w.token, { "X-Service-Workspace": w.target.slug });
    const list = (await there.GET("/initiatives", {})).data!.initiatives;
    expect(list).toEqual([
      {
        id: moved.initiative.id,
        name: "Moonshot",
        description: "Far",
        status: "active",
        health: expect.any(String),
        lead: { id: w.user.id, name: w.user.name, email: w.user.email },
        targetDate: day(30),
        projects: [
          {
            id: w.alpha,
            name: "Alpha",
            status: "started",
            progress: expect.objectContaining({ done: 1, total: 2 }),
          },
          {
            id: w.beta,
            name: "Beta",
            status: "planned",
            progress: expect.objectContaining({ done: 0, total: 1 }),
          },
        ],
        progress: { done: 1, total: 3, percent: 33, excludedProjects: 0 },
      },
    ]);
    const issues = await srv.query("select count(*)::int as n from issues where workspace_id = $1", [
      w.target.id,
    ]);
    expect(issues).toEqual([{ n: 3 }]);
  });

  it("changes nothing when a project's name is taken in the target after an earlier project moved", async () => {
    const w = await world();
    const there = srv.client(w.token, { "X-Service-Workspace": w.target.slug });
    const taken = await there.POST("/projects", {
      body: { name: "beta", teams: ["DST"], status: "backlog" },
    });
    expect(taken.response.status).toBe(201);
    const before = await snapshot(srv);
    const res = await w.api.POST("/initiatives/{id}/move", {
      params: { path: { id: w.ini.id } },
      body: { workspace: w.target.id, team: w.dst.id },
    });
    expect(res.response.status).toBe(409);
    expect(res.error?.code).toBe("conflict");
    expect(await snapshot(srv)).toEqual(before);
  });

  it("refuses the same workspace, a taken name, a missing team and non-admins, changing nothing", async () => {
    const w = await world();
    const there = srv.client(w.token, { "X-Service-Workspace": w.target.slug });
    await initiative(there, { name: "Other" });
    const stranger = await srv.bootstrap();
    const member = await srv.addMember(w.token, "member");
    const before = await snapshot(srv);
    const call = (client: ApiClient, body: { workspace: string; team: string }, id = "Moonshot") =>
      client.POST("/initiatives/{id}/move", { params: { path: { id } }, body });

    const same = await call(w.api, { workspace: w.ws.slug, team: "ENG" });
    expect(same.response.status).toBe(400);
    const noTeam = await call(w.api, { workspace: w.target.slug, team: "NOPE" });
    expect(noTeam.response.status).toBe(404);
    const notMember = await call(w.api, { workspace: stranger.workspace.slug, team: "DST" });
    expect(notMember.error?.code).toBe("workspace_forbidden");
    const notAdmin = await call(srv.client(member.token), { workspace: w.target.slug, team: "DST" });
    expect(notAdmin.response.status).toBe(403);
    expect(notAdmin.error?.code).toBe("admin_required");
    expect(await snapshot(srv)).toEqual(before);
    await w.api.PATCH("/initiatives/{id}", { params: { path: { id: "Moonshot" } }, body: { name: "Other" } });
    const renamedBefore = await snapshot(srv);
    const taken = await call(w.api, { workspace: w.target.slug, team: "DST" }, "Other");
    expect(taken.response.status).toBe(409);
    expect(await snapshot(srv)).toEqual(renamedBefore);
  });
});

// Whatever these tests wrote, the label ids kept on issues (list pages read them) match their labels.
afterEach(async () => {
  expect(await driftedLabelIds(srv)).toEqual([]);
  expect(await driftedProjectTeamIds(srv)).toEqual([]);
});
