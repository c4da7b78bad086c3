import { randomUUID } from "node:crypto";
import type { components, operations } from "@tracker/sdk/schema";
import { beforeAll, describe, expect, it } from "vitest";
import { driftedProjectTeamIds } from "../../test/derived-counts.js";
import { type ApiClient, useTestServer } from "../../test/harness.js";
import {
  addIssue,
  addIssues,
  addTeam,
  age,
  day,
  type FixtureTeam,
  planningWorkspace,
} from "./planning.fixtures.js";

type ProjectCreate = components["schemas"]["ProjectCreate"];
type ListQuery = NonNullable<operations["listProjects"]["parameters"]["query"]>;

const srv = useTestServer();

const workspace = () => planningWorkspace(srv);

async function create(api: ApiClient, body: Partial<ProjectCreate> & { name: string }) {
  const res = await api.POST("/projects", { body: { teams: ["ENG"], status: "backlog", ...body } });
  if (res.response.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.error)}`);
  return res.data!.project;
}

async function names(api: ApiClient, query: ListQuery = {}) {
  const res = await api.GET("/projects", { params: { query: { sort: "name", ...query } } });
  if (res.response.status !== 200) throw new Error(`list failed: ${JSON.stringify(res.error)}`);
  return res.data!.projects.map((p) => p.name);
}

async function byName(api: ApiClient) {
  const res = await api.GET("/projects", { params: { query: { sort: "name", limit: 200 } } });
  return Object.fromEntries(res.data!.projects.map((p) => [p.name, p]));
}

describe("createProject", () => {
  it("creates a project for teams named by key or id, with every field present", async () => {
    const { api, ws, user, ops } = await workspace();
    const res = await api.POST("/projects", {
      body: {
        name: "Apollo",
        teams: ["ENG", ops.id],
        status: "planned",
        lead: "me",
        description: "To the moon",
        startDate: day(0),
        targetDate: day(30),
      },
    });
    expect(res.response.status).toBe(201);
    const p = res.data!.project;
    expect(p).toMatchObject({
      name: "Apollo",
      description: "To the moon",
      status: "planned",
      initiative: null,
      lead: { id: user.id, name: user.name },
      teams: [
        { key: "ENG", name: "Team ENG" },
        { key: "OPS", name: "Team OPS" },
      ],
      startDate: day(0),
      targetDate: day(30),
      progress: { done: 0, total: 0, percent: 0, excludedProjects: 0 },
      health: "on_track",
    });
    const changes = await srv.query(
      "select action from change_events where workspace_id = $1 and entity = 'project' and entity_id = $2",
      [ws.id, p.id],
    );
    expect(changes).toEqual([{ action: "created" }]);
  });

  it("refuses a taken name case-insensitively, unknown teams and reversed dates, creating nothing", async () => {
    const { api, ws } = await workspace();
    await create(api, { name: "Apollo" });
    const dup = await api.POST("/projects", { body: { name: "APOLLO", teams: ["OPS"], status: "backlog" } });
    expect(dup.response.status).toBe(409);
    expect(dup.error?.code).toBe("conflict");
    const noTeam = await api.POST("/projects", {
      body: { name: "Gemini", teams: ["NOPE"], status: "backlog" },
    });
    expect(noTeam.response.status).toBe(404);
    const dates = await api.POST("/projects", {
      body: { name: "Mercury", teams: ["ENG"], status: "backlog", startDate: day(5), targetDate: day(1) },
    });
    expect(dates.response.status).toBe(400);
    expect(dates.error?.code).toBe("invalid_request");
    const rows = await srv.query("select name from projects where workspace_id = $1", [ws.id]);
    expect(rows).toEqual([{ name: "Apollo" }]);
  });

  it("lets guests create projects only for teams they belong to", async () => {
    const { token, ws, ops } = await workspace();
    const guest = await srv.addMember(token, "guest");
    await srv.query(
      "insert into team_members (id, team_id, user_id, created_at) values ($1, $2, $3, now())",
      [randomUUID(), ops.id, guest.userId],
    );
    const g = srv.client(guest.token);
    const refused = await g.POST("/projects", {
      body: { name: "Eng work", teams: ["ENG"], status: "backlog" },
    });
    expect(refused.response.status).toBe(404);
    const ok = await g.POST("/projects", { body: { name: "Ops work", teams: ["OPS"], status: "backlog" } });
    expect(ok.response.status).toBe(201);
    expect((await srv.query("select name from projects where workspace_id = $1", [ws.id])).length).toBe(1);
  });
});

describe("progress and health", () => {
  it("computes progress and each health branch from target date versus progress", async () => {
    const { api, ws, eng } = await workspace();
    const mk = async (name: string, states: string[], startDate?: string, targetDate?: string) => {
      const p = await create(api, { name, startDate: startDate ?? null, targetDate: targetDate ?? null });
      await addIssues(srv, ws.id, eng, p.id, states);
    };
    // Half the time between start and target has elapsed in these three: 50% expected.
    await mk("No target", ["Todo", "Todo"]);
    await mk("On track", ["Done", "Done", "Todo", "Todo"], day(-10), day(10));
    await mk("At risk", ["Done", "Todo", "In Progress"], day(-10), day(10));
    await mk("Off track", ["Todo", "Todo"], day(-10), day(10));
    await mk("Late", [...Array(9).fill("Done"), "Todo"], day(-20), day(-1));
    await mk("Finished late", ["Done", "Canceled"], day(-20), day(-1));

    const all = await byName(api);
    const view = (n: string) => ({ progress: all[n]!.progress, health: all[n]!.health });
    expect(view("No target")).toEqual({
      progress: { done: 0, total: 2, percent: 0, excludedProjects: 0 },
      health: "on_track",
    });
    expect(view("On track")).toEqual({
      progress: { done: 2, total: 4, percent: 50, excludedProjects: 0 },
      health: "on_track",
    });
    // 33 is below the 50 expected but within 25 points.
    expect(view("At risk")).toEqual({
      progress: { done: 1, total: 3, percent: 33, excludedProjects: 0 },
      health: "at_risk",
    });
    expect(view("Off track")).toEqual({
      progress: { done: 0, total: 2, percent: 0, excludedProjects: 0 },
      health: "off_track",
    });
    // 90% would be at_risk against 100% expected; the passed target with open work makes it off_track.
    expect(view("Late")).toEqual({
      progress: { done: 9, total: 10, percent: 90, excludedProjects: 0 },
      health: "off_track",
    });
    // Canceled issues are out of the total; all work done, so a passed target is fine.
    expect(view("Finished late")).toEqual({
      progress: { done: 1, total: 1, percent: 100, excludedProjects: 0 },
      health: "on_track",
    });

    expect(await names(api, { health: ["at_risk", "off_track"] })).toEqual(["At risk", "Late", "Off track"]);
    expect(await names(api, { special: ["off_track"] })).toEqual(["Late", "Off track"]);
  });
});

describe("listProjects filters", () => {
  it("filters by initiative, status, lead, team and health, ANDed", async () => {
    const { api, token, ws, user, eng, ops } = await workspace();
    const member = await srv.addMember(token, "member");
    const ini = await api.POST("/initiatives", { body: { name: "Big bet", status: "planned" } });
    expect(ini.response.status).toBe(201);
    await create(api, { name: "A", teams: ["ENG"], status: "started", lead: "me", initiative: "Big bet" });
    await create(api, { name: "B", teams: ["OPS"], status: "planned", lead: member.email });
    await create(api, {
      name: "C",
      teams: ["ENG", "OPS"],
      status: "started",
      initiative: ini.data!.initiative.id,
    });
    const d = await create(api, { name: "D", teams: ["OPS"], status: "paused", targetDate: day(-1) });
    await addIssue(srv, ws.id, ops, { projectId: d.id });

    expect(await names(api, { initiative: "big BET" })).toEqual(["A", "C"]);
    expect(await names(api, { initiative: ini.data!.initiative.id })).toEqual(["A", "C"]);
    const missing = await api.GET("/projects", { params: { query: { initiative: "Nope" } } });
    expect(missing.response.status).toBe(404);
    expect(await names(api, { status: ["started", "paused"] })).toEqual(["A", "C", "D"]);
    expect(await names(api, { lead: [user.id] })).toEqual(["A"]);
    expect(await names(api, { lead: ["none"] })).toEqual(["C", "D"]);
    expect(await names(api, { lead: [member.userId, "none"] })).toEqual(["B", "C", "D"]);
    expect(await names(api, { team: ["ENG"] })).toEqual(["A", "C"]);
    expect(await names(api, { team: [ops.id] })).toEqual(["B", "C", "D"]);
    expect(await names(api, { team: [eng.id, "OPS"] })).toEqual(["A", "B", "C", "D"]);
    expect(await names(api, { health: ["off_track"] })).toEqual(["D"]);
    expect(await names(api, { team: ["OPS"], status: ["started"] })).toEqual(["C"]);
  });

  it("applies every special filter", async () => {
    const { api, token, ws, user, eng } = await workspace();
    const member = await srv.addMember(token, "member");
    await api.POST("/initiatives", { body: { name: "Big", status: "active" } });
    const p: Record<string, string> = {};
    const mk = async (name: string, body: Partial<ProjectCreate>, issues: string[] = []) => {
      const created = await create(api, { name, ...body });
      p[name] = created.id;
      await addIssues(srv, ws.id, eng, created.id, issues);
    };
    await mk(
      "Overdue",
      { status: "started", startDate: day(-30), targetDate: day(-3), lead: "me", initiative: "Big" },
      ["In Progress"],
    );
    await mk("Done late", { status: "completed", targetDate: day(-3) }, ["Done"]);
    await mk("This month", { status: "planned", targetDate: day(0), initiative: "Big" }, ["Done"]);
    await mk("No target", { status: "backlog", lead: "me" });
    await mk("Stale", { status: "planned", lead: member.email });
    await mk("Fresh issue", { status: "planned" }, ["Todo"]);
    await mk("Needs update", { status: "started" });
    await mk("Has update", { status: "started" });
    await mk("Paused", { status: "paused" });
    await mk("Canceled", { status: "canceled" });
    const staleIssue = await addIssue(srv, ws.id, eng, { projectId: p.Stale });
    await age(srv, "issues", staleIssue.id, { updatedDaysAgo: 20 });
    await age(srv, "projects", p.Stale!, { updatedDaysAgo: 20 });
    await age(srv, "projects", p["Fresh issue"]!, { updatedDaysAgo: 20 });
    await age(srv, "projects", p.Canceled!, { updatedDaysAgo: 20 });
    await age(srv, "projects", p["Needs update"]!, { createdDaysAgo: 10 });
    await age(srv, "projects", p["Has update"]!, { createdDaysAgo: 10 });
    await srv.query(
      `insert into status_updates (id, workspace_id, project_id, title, content, health, creator_id, created_at)
       values ($1, $2, $3, 'Week 2', 'Fine', 'on_track', $4, now() - interval '2 days')`,
      [randomUUID(), ws.id, p["Has update"], user.id],
    );

    const sameMonth = day(-3).slice(0, 7) === day(0).slice(0, 7);
    const cases: [components["schemas"]["ProjectSpecialFilter"][], string[]][] = [
      [["overdue"], ["Overdue"]],
      [["due_month"], sameMonth ? ["Overdue", "This month"] : ["This month"]],
      [
        ["no_target_date"],
        ["Canceled", "Fresh issue", "Has update", "Needs update", "No target", "Paused", "Stale"],
      ],
      [["stale"], ["Stale"]],
      [
        ["no_lead"],
        ["Canceled", "Done late", "Fresh issue", "Has update", "Needs update", "Paused", "This month"],
      ],
      [
        ["no_initiative"],
        [
          "Canceled",
          "Done late",
          "Fresh issue",
          "Has update",
          "Needs update",
          "No target",
          "Paused",
          "Stale",
        ],
      ],
      [["no_issues"], ["Canceled", "Has update", "Needs update", "No target", "Paused"]],
      [["update_overdue"], ["Needs update"]],
      [["off_track"], ["Overdue"]],
      [["uncounted"], ["Canceled", "Paused"]],
      [["led_by_me"], ["No target", "Overdue"]],
      [
        ["no_issues", "uncounted"],
        ["Canceled", "Paused"],
      ],
      [["led_by_me", "no_issues"], ["No target"]],
    ];
    for (const [special, expected] of cases) {
      expect({ special, got: await names(api, { special }) }).toEqual({ special, got: expected });
    }
  });
});

describe("listProjects sorting and paging", () => {
  let api: ApiClient;
  beforeAll(async () => {
    const w = await workspace();
    api = w.api;
    const member = await srv.addMember(w.token, "member");
    const mk = async (
      name: string,
      body: Partial<ProjectCreate>,
      issues: string[],
      updatedDaysAgo: number,
    ) => {
      const p = await create(api, { name, ...body });
      await addIssues(srv, w.ws.id, w.eng, p.id, issues);
      await age(srv, "projects", p.id, { updatedDaysAgo });
    };
    // Admin's name starts with "Admin", the member's with "member": the admin sorts first by lead.
    await mk("Alpha", { status: "started", targetDate: day(5), lead: member.email }, ["Done", "Todo"], 1);
    await mk("Bravo", { status: "backlog" }, [], 2);
    await mk("Charlie", { status: "paused", targetDate: day(-2), lead: "me" }, ["Todo"], 3);
    await mk("Delta", { status: "planned", targetDate: day(20), lead: "me" }, ["Done", "Done", "Done"], 4);
  });

  it.each([
    [undefined, ["Alpha", "Bravo", "Charlie", "Delta"]],
    ["name", ["Alpha", "Bravo", "Charlie", "Delta"]],
    ["-name", ["Delta", "Charlie", "Bravo", "Alpha"]],
    ["target", ["Charlie", "Alpha", "Delta", "Bravo"]],
    ["-target", ["Bravo", "Delta", "Alpha", "Charlie"]],
    ["health", ["Charlie", "Alpha", "Bravo", "Delta"]],
    ["-health", ["Alpha", "Bravo", "Delta", "Charlie"]],
    ["status", ["Bravo", "Delta", "Alpha", "Charlie"]],
    ["-status", ["Charlie", "Alpha", "Delta", "Bravo"]],
    ["updated", ["Delta", "Charlie", "Bravo", "Alpha"]],
    ["-updated", ["Alpha", "Bravo", "Charlie", "Delta"]],
    ["progress", ["Bravo", "Charlie", "Alpha", "Delta"]],
    ["-progress", ["Delta", "Alpha", "Bravo", "Charlie"]],
    ["scope", ["Bravo", "Charlie", "Alpha", "Delta"]],
    ["-scope", ["Delta", "Alpha", "Charlie", "Bravo"]],
    ["lead", ["Charlie", "Delta", "Alpha", "Bravo"]],
    ["-lead", ["Bravo", "Alpha", "Charlie", "Delta"]],
  ] as [ListQuery["sort"], string[]][])("sort %s", async (sort, expected) => {
    const res = await api.GET("/projects", { params: { query: sort ? { sort } : {} } });
    expect(res.data!.projects.map((p) => p.name)).toEqual(expected);
  });

  it("pages with limit, offset and nextOffset", async () => {
    const first = await api.GET("/projects", { params: { query: { sort: "name", limit: 3 } } });
    expect(first.data!.projects.map((p) => p.name)).toEqual(["Alpha", "Bravo", "Charlie"]);
    expect(first.data!.nextOffset).toBe(3);
    const second = await api.GET("/projects", { params: { query: { sort: "name", limit: 3, offset: 3 } } });
    expect(second.data!.projects.map((p) => p.name)).toEqual(["Delta"]);
    expect(second.data!.nextOffset).toBeNull();
    const whole = await api.GET("/projects", { params: { query: { limit: 4 } } });
    expect(whole.data!.nextOffset).toBeNull();
    const tooMany = await api.GET("/projects", { params: { query: { limit: 201 } } });
    expect(tooMany.response.status).toBe(400);
  });
});

describe("visibility and members", () => {
  let api: ApiClient;
  let token: string;
  let wsId: string;
  let guest: { token: string; userId: string; email: string };
  let member: { token: string; userId: string; email: string };
  let personal: FixtureTeam;
  beforeAll(async () => {
    const w = await workspace();
    ({ api, token } = w);
    wsId = w.ws.id;
    guest = await srv.addMember(token, "guest");
    member = await srv.addMember(token, "member");
    await srv.query(
      "insert into team_members (id, team_id, user_id, created_at) values ($1, $2, $3, now())",
      [randomUUID(), w.ops.id, guest.userId],
    );
    personal = await addTeam(srv, wsId, "ME", [w.user.id], { personal: true });
    await create(api, { name: "Eng only", teams: ["ENG"] });
    await create(api, { name: "Ops", teams: ["OPS"] });
    await create(api, { name: "Both", teams: ["ENG", "OPS"] });
    await create(api, { name: "Invited", teams: ["ENG"] });
    const detached = await create(api, { name: "Detached", teams: ["ENG"] });
    await srv.query("delete from project_teams where project_id = $1", [detached.id]);
    await create(api, { name: "Private", teams: ["ME"] });
  });

  it("shows guests only their teams' projects and those they were added to", async () => {
    expect(await names(api)).toEqual(["Both", "Detached", "Eng only", "Invited", "Ops", "Private"]);
    expect(await names(srv.client(member.token))).toEqual(["Both", "Detached", "Eng only", "Invited", "Ops"]);
    const g = srv.client(guest.token);
    expect(await names(g)).toEqual(["Both", "Ops"]);
    const hidden = await g.GET("/projects/{id}/page-data", { params: { path: { id: "Eng only" } } });
    expect(hidden.response.status).toBe(404);

    const add = await api.POST("/projects/{id}/members", {
      params: { path: { id: "Invited" } },
      body: { user: guest.email },
    });
    expect(add.response.status).toBe(200);
    expect(await names(g)).toEqual(["Both", "Invited", "Ops"]);
    // A guest sees only the teams it may see on a project it was invited to.
    const invited = (await g.GET("/projects", { params: { query: { sort: "name" } } })).data!.projects.find(
      (p) => p.name === "Invited",
    );
    expect(invited?.teams).toEqual([]);
  });

  it("adds, lists and removes members, idempotently, with permission checks", async () => {
    await create(api, { name: "Crew", teams: ["ENG"] });
    const add = () =>
      api.POST("/projects/{id}/members", { params: { path: { id: "crew" } }, body: { user: member.email } });
    expect((await add()).response.status).toBe(200);
    expect((await add()).response.status).toBe(200);
    const list = await api.GET("/projects/{id}/members", { params: { path: { id: "Crew" } } });
    expect(list.data!.members).toEqual([
      { id: member.userId, name: expect.any(String), email: member.email },
    ]);

    // A member who is neither lead nor in the project's teams may not manage members; the lead may.
    const m = srv.client(member.token);
    const refused = await m.POST("/projects/{id}/members", {
      params: { path: { id: "Crew" } },
      body: { user: guest.email },
    });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.code).toBe("forbidden");
    await api.PATCH("/projects/{id}", { params: { path: { id: "Crew" } }, body: { lead: member.email } });
    const asLead = await m.POST("/projects/{id}/members", {
      params: { path: { id: "Crew" } },
      body: { user: guest.email },
    });
    expect(asLead.response.status).toBe(200);

    // Anyone may remove themself; removing a non-member is 404.
    const g = srv.client(guest.token);
    const self = await g.DELETE("/projects/{id}/members", {
      params: { path: { id: "Crew" }, query: { user: guest.userId } },
    });
    expect(self.response.status).toBe(200);
    const again = await api.DELETE("/projects/{id}/members", {
      params: { path: { id: "Crew" }, query: { user: guest.userId } },
    });
    expect(again.response.status).toBe(404);
    const unknownUser = await api.POST("/projects/{id}/members", {
      params: { path: { id: "Crew" } },
      body: { user: "nobody@example.com" },
    });
    expect(unknownUser.response.status).toBe(404);
    const after = await api.GET("/projects/{id}/members", { params: { path: { id: "Crew" } } });
    expect(after.data!.members.map((u) => u.id)).toEqual([member.userId]);
  });

  it("refuses members for a project in a personal space, adding nothing", async () => {
    const res = await api.POST("/projects/{id}/members", {
      params: { path: { id: "Private" } },
      body: { user: member.email },
    });
    expect(res.response.status).toBe(409);
    expect(res.error?.code).toBe("personal_space");
    const rows = await srv.query(
      "select 1 from project_members pm join project_teams pt on pt.project_id = pm.project_id where pt.team_id = $1",
      [personal.id],
    );
    expect(rows).toEqual([]);
  });
});

describe("teams on a list page", () => {
  it("shows each caller the teams it may see, ordered by key, with their names as they are now", async () => {
    const w = await workspace();
    const guest = await srv.addMember(w.token, "guest");
    const member = await srv.addMember(w.token, "member");
    await srv.query(
      "insert into team_members (id, team_id, user_id, created_at) values ($1, $2, $3, now())",
      [randomUUID(), w.ops.id, guest.userId],
    );
    await addTeam(srv, w.ws.id, "AB1", [w.user.id]);
    const mine = await addTeam(srv, w.ws.id, "ME", [w.user.id], { personal: true });
    const wide = await create(w.api, { name: "Wide", teams: ["OPS", "ENG", "AB1"] });
    await srv.query("insert into project_teams (project_id, team_id) values ($1, $2)", [wide.id, mine.id]);
    const teams = async (api: ApiClient) =>
      (await api.GET("/projects")).data!.projects.find((p) => p.name === "Wide")?.teams.map((t) => t.key);

    expect(await teams(w.api)).toEqual(["AB1", "ENG", "ME", "OPS"]);
    expect(await teams(srv.client(member.token))).toEqual(["AB1", "ENG", "OPS"]);
    expect(await teams(srv.client(guest.token))).toEqual(["OPS"]);

    // A renamed team shows its new name on the next page; a deleted team leaves the project's list.
    const renamed = await w.api.PATCH("/teams/{key}", {
      params: { path: { key: "OPS" } },
      body: { name: "Operations" },
    });
    expect(renamed.response.status).toBe(200);
    const gone = await w.api.DELETE("/teams/{key}", { params: { path: { key: "AB1" } } });
    expect(gone.response.status).toBe(200);
    const page = (await w.api.GET("/projects")).data!.projects.find((p) => p.name === "Wide")!;
    expect(page.teams.map((t) => [t.key, t.name])).toEqual([
      ["ENG", "Team ENG"],
      ["ME", "Team ME"],
      ["OPS", "Operations"],
    ]);
    expect(await driftedProjectTeamIds(srv)).toEqual([]);
  });
});

describe("updateProject and page data", () => {
  it("updates fields, refuses a taken name and reversed dates, and answers page data", async () => {
    const { api, user } = await workspace();
    const p = await create(api, { name: "Apollo", description: "Moon", lead: "me" });
    await create(api, { name: "Gemini" });
    await api.POST("/initiatives", { body: { name: "Space", status: "active" } });

    const taken = await api.PATCH("/projects/{id}", {
      params: { path: { id: p.id } },
      body: { name: "gemini" },
    });
    expect(taken.response.status).toBe(409);
    expect(taken.error?.code).toBe("conflict");
    const dates = await api.PATCH("/projects/{id}", {
      params: { path: { id: "Apollo" } },
      body: { startDate: day(3), targetDate: day(2) },
    });
    expect(dates.response.status).toBe(400);
    const unchanged = await api.PATCH("/projects/{id}", { params: { path: { id: "apollo" } }, body: {} });
    expect(unchanged.data!.project).toMatchObject({ name: "Apollo", lead: { id: user.id }, startDate: null });

    const res = await api.PATCH("/projects/{id}", {
      params: { path: { id: "Apollo" } },
      body: { name: "Apollo 11", lead: null, initiative: "Space", status: "started", targetDate: day(7) },
    });
    expect(res.response.status).toBe(200);
    expect(res.data!.project).toMatchObject({
      id: p.id,
      name: "Apollo 11",
      lead: null,
      initiative: { name: "Space" },
      status: "started",
      targetDate: day(7),
      description: "Moon",
    });

    const page = await api.GET("/projects/{id}/page-data", { params: { path: { id: "Apollo 11" } } });
    expect(page.data).toEqual({ project: { id: p.id, description: "Moon" } });
    const gone = await api.GET("/projects/{id}/page-data", { params: { path: { id: "Apollo" } } });
    expect(gone.response.status).toBe(404);
  });

  it("replaces the team set and clears the project from issues of removed teams", async () => {
    const { api, ws, eng, ops } = await workspace();
    const p = await create(api, { name: "Shared", teams: ["ENG", "OPS"] });
    const engIssue = await addIssue(srv, ws.id, eng, { projectId: p.id });
    const opsIssue = await addIssue(srv, ws.id, ops, { projectId: p.id });
    const res = await api.PATCH("/projects/{id}", {
      params: { path: { id: p.id } },
      body: { teams: ["OPS"] },
    });
    expect(res.data!.project.teams.map((t) => t.key)).toEqual(["OPS"]);
    const rows = await srv.query<{ id: string; project_id: string | null }>(
      "select id, project_id from issues where id = any($1) order by number",
      [[engIssue.id, opsIssue.id]],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.project_id]))).toEqual({
      [engIssue.id]: null,
      [opsIssue.id]: p.id,
    });
    const activity = await srv.query<{ payload: unknown }>(
      "select payload from activity_events where issue_id = $1 and type = 'issue_updated'",
      [engIssue.id],
    );
    expect(activity).toEqual([
      { payload: { changes: { project: { from: { id: p.id, name: "Shared" }, to: null } } } },
    ]);
    const changes = await srv.query(
      "select entity, action, identifier from change_events where entity_id = $1 and entity = 'issue'",
      [engIssue.id],
    );
    expect(changes).toEqual([{ entity: "issue", action: "updated", identifier: engIssue.identifier }]);
  });
});
