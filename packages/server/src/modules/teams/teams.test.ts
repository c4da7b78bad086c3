import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { afterEach, describe, expect, it } from "vitest";
import type { WorkspaceScope } from "../../http/handler.js";
import { driftedProjectTeamIds, driftedTeamStateCounts } from "../../test/derived-counts.js";
import { type ApiClient, useTestServer } from "../../test/harness.js";
import { whileHolding } from "../../test/hold.js";
import { resolveIssue } from "../shared/resolve.query.js";

const srv = useTestServer();
// Deleting a team and changing a project's teams keep each project's team_ids equal to project_teams.
afterEach(async () => {
  expect(await driftedProjectTeamIds(srv)).toEqual([]);
  expect(await driftedTeamStateCounts(srv)).toEqual([]);
});

/** A workspace with its admin's client. */
async function workspace() {
  const { apiKey, workspace, user } = await srv.bootstrap();
  return { admin: srv.client(apiKey.token), adminToken: apiKey.token, adminId: user.id, ws: workspace };
}

async function member(adminToken: string, role: "admin" | "member" | "guest" = "member") {
  const m = await srv.addMember(adminToken, role);
  return { api: srv.client(m.token), id: m.userId, email: m.email };
}

function createTeam(api: ApiClient, key: string, extra: { name?: string; personal?: boolean } = {}) {
  return api.POST("/teams", {
    body: {
      name: extra.name ?? `Team ${key}`,
      key,
      personal: extra.personal ?? false,
      cyclesEnabled: false,
      cycleLengthWeeks: 2,
      estimateScale: "none",
    },
  });
}

const teamCount = async (wsId: string) =>
  Number(
    (await srv.query<{ n: string }>("select count(*) as n from teams where workspace_id = $1", [wsId]))[0]!.n,
  );

/** Change events of one entity; for `member`, only team-membership ones (workspace membership has no team). */
const changes = (wsId: string, entity: string) =>
  srv.query<{ action: string; entity_id: string; team_key: string | null; identifier: string | null }>(
    `select action, entity_id, team_key, identifier from change_events
      where workspace_id = $1 and entity = $2 and ($2 <> 'member' or team_id is not null) order by id`,
    [wsId, entity],
  );

/** Inserts an issue row directly (the issues module is built separately), numbered like the service does. */
async function insertIssue(teamId: string, title: string) {
  const [team] = await srv.query<{ workspace_id: string; n: number }>(
    "update teams set issue_counter = issue_counter + 1 where id = $1 returning workspace_id, issue_counter as n",
    [teamId],
  );
  const [state] = await srv.query<{ id: string }>(
    "select id from workflow_states where team_id = $1 order by position limit 1",
    [teamId],
  );
  const id = randomUUID();
  await srv.query(
    `insert into issues (id, workspace_id, team_id, number, title, priority, state_id, state_type, created_at, updated_at)
     values ($1, $2, $3, $4, $5, 0, $6, 'backlog', now(), now())`,
    [id, team!.workspace_id, teamId, team!.n, title, state!.id],
  );
  return { id, number: team!.n };
}

async function insertProject(wsId: string, name: string, teamIds: string[]) {
  const id = randomUUID();
  await srv.query(
    "insert into projects (id, workspace_id, name, status, created_at, updated_at) values ($1, $2, $3, 'backlog', now(), now())",
    [id, wsId, name],
  );
  for (const t of teamIds)
    await srv.query("insert into project_teams (project_id, team_id) values ($1, $2)", [id, t]);
  return id;
}

/** Resolves an identifier the way every issue endpoint does (shared/resolve.query.ts), as an admin of the workspace. */
function resolveAs(wsId: string, userId: string, identifier: string) {
  const scope = {
    em: srv.running.orm.em.fork() as EntityManager,
    caller: { userId },
    workspace: { id: wsId, role: "admin" },
  } as unknown as WorkspaceScope;
  return resolveIssue(scope, identifier);
}

describe("creating teams", () => {
  it("creates a team with the default workflow, and the creator joins it", async () => {
    const { admin, ws, adminId } = await workspace();
    const created = await createTeam(admin, "ENG", { name: "Engineering" });
    expect(created.response.status).toBe(201);
    const team = created.data!.team;
    expect(team).toMatchObject({
      key: "ENG",
      name: "Engineering",
      personal: false,
      cyclesEnabled: false,
      cycleLengthWeeks: 2,
      estimateScale: "none",
    });
    expect(team.states.map((s) => [s.name, s.type])).toEqual([
      ["Backlog", "backlog"],
      ["Todo", "unstarted"],
      ["In Progress", "started"],
      ["In Review", "started"],
      ["Done", "completed"],
      ["Canceled", "canceled"],
    ]);

    const mine = await admin.GET("/teams");
    expect(mine.data!.teams).toEqual([team]);
    const all = await admin.GET("/teams/all");
    expect(all.data!.teams).toEqual([{ id: team.id, key: "ENG", name: "Engineering", joined: true }]);
    const members = await admin.GET("/teams/{key}/members", { params: { path: { key: "ENG" } } });
    expect(members.data!.members.map((m) => m.id)).toEqual([adminId]);
    expect(await changes(ws.id, "team")).toEqual([
      { action: "created", entity_id: team.id, team_key: "ENG", identifier: null },
    ]);
  });

  it("takes the optional settings and accepts a body with only name and key", async () => {
    const { admin } = await workspace();
    const created = await admin.POST("/teams", {
      body: {
        name: "Ops",
        key: "OPS2",
        cyclesEnabled: true,
        cycleLengthWeeks: 3,
        estimateScale: "fibonacci",
      } as never,
    });
    expect(created.response.status).toBe(201);
    expect(created.data!.team).toMatchObject({
      cyclesEnabled: true,
      cycleLengthWeeks: 3,
      estimateScale: "fibonacci",
    });
    const bare = await admin.POST("/teams", { body: { name: "Bare", key: "B" } as never });
    expect(bare.response.status).toBe(201);
    expect(bare.data!.team).toMatchObject({
      key: "B",
      personal: false,
      cycleLengthWeeks: 2,
      estimateScale: "none",
    });
  });

  it("refuses lowercase and malformed keys without writing anything", async () => {
    const { admin, ws } = await workspace();
    for (const key of ["eng", "Eng", "1AB", "ABCDEFGH", "", "A-B"]) {
      const res = await createTeam(admin, key);
      expect(res.response.status, key).toBe(400);
      expect(res.error!.code).toBe("invalid_request");
    }
    const blank = await createTeam(admin, "OK", { name: "   " });
    expect(blank.response.status).toBe(400);
    expect(await teamCount(ws.id)).toBe(0);
  });

  it("refuses a key taken in the workspace (409 team_key_taken) but not one taken elsewhere", async () => {
    const { admin, ws } = await workspace();
    expect((await createTeam(admin, "WEB")).response.status).toBe(201);
    const again = await createTeam(admin, "WEB", { name: "Other" });
    expect(again.response.status).toBe(409);
    expect(again.error!.code).toBe("team_key_taken");
    expect(await teamCount(ws.id)).toBe(1);
    expect(
      (await srv.query("select 1 from teams where name = 'Other' and workspace_id = $1", [ws.id])).length,
    ).toBe(0);

    const other = await workspace();
    expect((await createTeam(other.admin, "WEB")).response.status).toBe(201);
  });

  it("lets exactly one of two concurrent creates of the same key win; the other gets 409, never a 500", async () => {
    const { admin, ws } = await workspace();
    const results = await Promise.all([
      createTeam(admin, "RACE"),
      createTeam(admin, "RACE"),
      createTeam(admin, "RACE"),
    ]);
    const statuses = results.map((r) => r.response.status).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const r of results.filter((r) => r.response.status === 409))
      expect(r.error!.code).toBe("team_key_taken");
    expect(await teamCount(ws.id)).toBe(1);
    // The losers left no states or memberships behind.
    const orphans = await srv.query(
      "select 1 from workflow_states s left join teams t on t.id = s.team_id where t.id is null",
    );
    expect(orphans.length).toBe(0);
  });

  it("refuses guests (403 forbidden), writing nothing", async () => {
    const { admin, adminToken, ws } = await workspace();
    const guest = await member(adminToken, "guest");
    const res = await createTeam(guest.api, "GST");
    expect(res.response.status).toBe(403);
    expect(res.error!.code).toBe("forbidden");
    const personal = await createTeam(guest.api, "GSTP", { personal: true });
    expect(personal.response.status).toBe(403);
    expect(await teamCount(ws.id)).toBe(0);
    expect((await admin.GET("/teams/all")).data!.teams).toEqual([]);
  });
});

describe("personal spaces", () => {
  it("creates one per user, seen only by its owner", async () => {
    const { admin, adminToken, ws } = await workspace();
    const ada = await member(adminToken);
    await createTeam(admin, "ENG");
    const created = await createTeam(ada.api, "ADA", { name: "Ada's space", personal: true });
    expect(created.response.status).toBe(201);
    expect(created.data!.team.personal).toBe(true);
    const [row] = await srv.query<{ owner_id: string }>("select owner_id from teams where id = $1", [
      created.data!.team.id,
    ]);
    expect(row!.owner_id).toBe(ada.id);

    // Owner: listed first in their teams, visible in /teams/all.
    await ada.api.POST("/teams/{key}/join", { params: { path: { key: "ENG" } } });
    expect((await ada.api.GET("/teams")).data!.teams.map((t) => t.key)).toEqual(["ADA", "ENG"]);
    expect((await ada.api.GET("/teams/all")).data!.teams.map((t) => t.key)).toEqual(["ADA", "ENG"]);

    // A second one: 409 personal_space, nothing written.
    const second = await createTeam(ada.api, "ADA2", { personal: true });
    expect(second.response.status).toBe(409);
    expect(second.error!.code).toBe("personal_space");
    expect(await teamCount(ws.id)).toBe(2);

    // Everyone else, admins included, sees nothing of it.
    expect((await admin.GET("/teams/all")).data!.teams.map((t) => t.key)).toEqual(["ENG"]);
    const path = { params: { path: { key: "ADA" } } };
    for (const res of [
      await admin.GET("/teams/{key}/members", path),
      await admin.POST("/teams/{key}/join", path),
      await admin.GET("/teams/{key}/workflows", path),
      await admin.PATCH("/teams/{key}", { ...path, body: { name: "Mine now" } }),
      await admin.DELETE("/teams/{key}", path),
    ]) {
      expect(res.response.status).toBe(404);
      expect(res.error!.code).toBe("not_found");
    }
    const members = await srv.query("select user_id from team_members where team_id = $1", [
      created.data!.team.id,
    ]);
    expect(members).toEqual([{ user_id: ada.id }]);

    // The owner may rename it (not an admin), but may not delete it, add people to it, or leave it.
    expect((await ada.api.PATCH("/teams/{key}", { ...path, body: { name: "Ada" } })).response.status).toBe(
      200,
    );
    const del = await ada.api.DELETE("/teams/{key}", path);
    expect(del.response.status).toBe(403);
    const unknown = await ada.api.POST("/teams/{key}/members", { ...path, body: { userId: randomUUID() } });
    expect(unknown.response.status).toBe(404);
    const [adminUser] = await srv.query<{ user_id: string }>(
      "select user_id from memberships where workspace_id = $1 and role = 'admin'",
      [ws.id],
    );
    const addAdmin = await ada.api.POST("/teams/{key}/members", {
      ...path,
      body: { userId: adminUser!.user_id },
    });
    expect(addAdmin.response.status).toBe(409);
    expect(addAdmin.error!.code).toBe("personal_space");
    const leave = await ada.api.DELETE("/teams/{key}/members/{userId}", {
      params: { path: { key: "ADA", userId: ada.id } },
    });
    expect(leave.response.status).toBe(409);
    expect(leave.error!.code).toBe("personal_space");
    expect(
      await srv.query("select user_id from team_members where team_id = $1", [created.data!.team.id]),
    ).toEqual([{ user_id: ada.id }]);
  });

  it("two concurrent personal-space creates by one user: one wins, the other gets 409 personal_space", async () => {
    const { admin, ws } = await workspace();
    const results = await Promise.all([
      createTeam(admin, "MEA", { personal: true }),
      createTeam(admin, "MEB", { personal: true }),
    ]);
    expect(results.map((r) => r.response.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.response.status === 409)!.error!.code).toBe("personal_space");
    expect(await teamCount(ws.id)).toBe(1);
  });

  it("refuses to delete an admin's own personal space (409 personal_space)", async () => {
    const { admin, ws } = await workspace();
    await createTeam(admin, "ME", { personal: true });
    const res = await admin.DELETE("/teams/{key}", { params: { path: { key: "ME" } } });
    expect(res.response.status).toBe(409);
    expect(res.error!.code).toBe("personal_space");
    expect(await teamCount(ws.id)).toBe(1);
  });
});

describe("visibility and joining", () => {
  it("members see every non-personal team and may join; joining twice is fine", async () => {
    const { admin, adminToken, ws } = await workspace();
    const bob = await member(adminToken);
    await createTeam(admin, "ENG", { name: "Engineering" });
    await createTeam(admin, "DES", { name: "Design" });
    expect((await bob.api.GET("/teams")).data!.teams).toEqual([]);
    expect((await bob.api.GET("/teams/all")).data!.teams.map((t) => [t.key, t.joined])).toEqual([
      ["DES", false],
      ["ENG", false],
    ]);
    for (let i = 0; i < 2; i++) {
      const joined = await bob.api.POST("/teams/{key}/join", { params: { path: { key: "ENG" } } });
      expect(joined.response.status).toBe(200);
    }
    expect((await bob.api.GET("/teams")).data!.teams.map((t) => t.key)).toEqual(["ENG"]);
    expect((await bob.api.GET("/teams/all")).data!.teams.map((t) => [t.key, t.joined])).toEqual([
      ["DES", false],
      ["ENG", true],
    ]);
    const memberChanges = (await changes(ws.id, "member")).filter((c) => c.entity_id === bob.id);
    expect(memberChanges).toEqual([
      { action: "created", entity_id: bob.id, team_key: "ENG", identifier: null },
    ]);
  });

  it("guests see only their teams and cannot join others (404)", async () => {
    const { admin, adminToken } = await workspace();
    const guest = await member(adminToken, "guest");
    await createTeam(admin, "ENG");
    await createTeam(admin, "OPS");
    expect((await guest.api.GET("/teams/all")).data!.teams).toEqual([]);
    const join = await guest.api.POST("/teams/{key}/join", { params: { path: { key: "ENG" } } });
    expect(join.response.status).toBe(404);
    expect(join.error!.code).toBe("not_found");
    expect(
      (await guest.api.GET("/teams/{key}/members", { params: { path: { key: "ENG" } } })).response.status,
    ).toBe(404);

    const added = await admin.POST("/teams/{key}/members", {
      params: { path: { key: "ENG" } },
      body: { userId: guest.email },
    });
    expect(added.response.status).toBe(200);
    expect((await guest.api.GET("/teams/all")).data!.teams.map((t) => [t.key, t.joined])).toEqual([
      ["ENG", true],
    ]);
    expect((await guest.api.GET("/teams")).data!.teams.map((t) => t.key)).toEqual(["ENG"]);
  });
});

describe("updating teams", () => {
  it("lets admins change name and settings; members get 403 admin_required and change nothing", async () => {
    const { admin, adminToken, ws } = await workspace();
    const bob = await member(adminToken);
    await createTeam(admin, "ENG", { name: "Engineering" });
    const path = { params: { path: { key: "ENG" } } };
    const refused = await bob.api.PATCH("/teams/{key}", { ...path, body: { name: "Bob's" } });
    expect(refused.response.status).toBe(403);
    expect(refused.error!.code).toBe("admin_required");

    const ok = await admin.PATCH("/teams/{key}", {
      ...path,
      body: { name: "Eng", cyclesEnabled: true, cycleLengthWeeks: 1, estimateScale: "tshirt" },
    });
    expect(ok.response.status).toBe(200);
    // The answer is the team as it now is, the same as the list shows.
    const [team] = (await admin.GET("/teams")).data!.teams;
    // `{ok}`, as the service's API names it, with the team beside it.
    expect(ok.data).toEqual({ ok: true, team });
    expect(team).toMatchObject({
      key: "ENG",
      name: "Eng",
      cyclesEnabled: true,
      cycleLengthWeeks: 1,
      estimateScale: "tshirt",
    });
    expect((await changes(ws.id, "team")).map((c) => c.action)).toEqual(["created", "updated"]);

    const bad = await admin.PATCH("/teams/{key}", { ...path, body: { personal: true } as never });
    expect(bad.response.status).toBe(400);
  });

  it("changes the key: identifiers are re-prefixed and the old ones keep resolving through redirects", async () => {
    const { admin, ws, adminId } = await workspace();
    const eng = (await createTeam(admin, "ENG")).data!.team;
    const one = await insertIssue(eng.id, "First");
    const two = await insertIssue(eng.id, "Second");

    const res = await admin.PATCH("/teams/{key}", {
      params: { path: { key: "ENG" } },
      body: { key: "PLAT" },
    });
    expect(res.response.status).toBe(200);
    expect((await admin.GET("/teams")).data!.teams.map((t) => t.key)).toEqual(["PLAT"]);
    const redirects = await srv.query(
      "select team_key, number, issue_id from issue_redirects where workspace_id = $1 order by number",
      [ws.id],
    );
    expect(redirects).toEqual([
      { team_key: "ENG", number: 1, issue_id: one.id },
      { team_key: "ENG", number: 2, issue_id: two.id },
    ]);
    expect(await resolveAs(ws.id, adminId, "ENG-2")).toMatchObject({ id: two.id, identifier: "PLAT-2" });
    expect(await resolveAs(ws.id, adminId, "PLAT-1")).toMatchObject({ id: one.id, identifier: "PLAT-1" });
    const viaApi = await admin.GET("/issues/{identifier}", { params: { path: { identifier: "ENG-1" } } });
    expect(viaApi.error).toBeUndefined();
    expect(viaApi.data!.issue).toMatchObject({ id: one.id, identifier: "PLAT-1", team: { key: "PLAT" } });
    const issueChanges = await changes(ws.id, "issue");
    expect(issueChanges.map((c) => [c.action, c.identifier])).toEqual([
      ["updated", "PLAT-1"],
      ["updated", "PLAT-2"],
    ]);

    // The old key is free again; its new team's own ENG-1 wins over the redirect, ENG-2 still redirects.
    const fresh = (await createTeam(admin, "ENG")).data!.team;
    const freshOne = await insertIssue(fresh.id, "New first");
    expect(await resolveAs(ws.id, adminId, "ENG-1")).toMatchObject({ id: freshOne.id });
    expect(await resolveAs(ws.id, adminId, "ENG-2")).toMatchObject({ id: two.id });

    // Renaming the new ENG too replaces the stale ENG-1 redirect instead of failing on it.
    expect(
      (await admin.PATCH("/teams/{key}", { params: { path: { key: "ENG" } }, body: { key: "NEW" } })).response
        .status,
    ).toBe(200);
    expect(await resolveAs(ws.id, adminId, "ENG-1")).toMatchObject({ id: freshOne.id, identifier: "NEW-1" });
    expect(await resolveAs(ws.id, adminId, "ENG-2")).toMatchObject({ id: two.id, identifier: "PLAT-2" });
  });

  it("refuses a key change to a taken key (409 team_key_taken) and changes nothing", async () => {
    const { admin, ws } = await workspace();
    const eng = (await createTeam(admin, "ENG")).data!.team;
    await createTeam(admin, "OPS");
    await insertIssue(eng.id, "First");
    const res = await admin.PATCH("/teams/{key}", {
      params: { path: { key: "ENG" } },
      body: { key: "OPS", name: "Renamed" },
    });
    expect(res.response.status).toBe(409);
    expect(res.error!.code).toBe("team_key_taken");
    const [row] = await srv.query("select key, name from teams where id = $1", [eng.id]);
    expect(row).toEqual({ key: "ENG", name: "Team ENG" });
    expect(await srv.query("select 1 from issue_redirects where workspace_id = $1", [ws.id])).toEqual([]);
    expect((await changes(ws.id, "team")).filter((c) => c.action === "updated")).toEqual([]);

    const lower = await admin.PATCH("/teams/{key}", {
      params: { path: { key: "ENG" } },
      body: { key: "ops" },
    });
    expect(lower.response.status).toBe(400);
  });
});

describe("deleting teams", () => {
  it("is for admins only (403 admin_required), and a refused delete leaves everything", async () => {
    const { admin, adminToken, ws } = await workspace();
    const bob = await member(adminToken);
    const eng = (await createTeam(admin, "ENG")).data!.team;
    await bob.api.POST("/teams/{key}/join", { params: { path: { key: "ENG" } } });
    await insertIssue(eng.id, "Keep me");
    const res = await bob.api.DELETE("/teams/{key}", { params: { path: { key: "ENG" } } });
    expect(res.response.status).toBe(403);
    expect(res.error!.code).toBe("admin_required");
    expect(await teamCount(ws.id)).toBe(1);
    expect((await srv.query("select 1 from issues where team_id = $1", [eng.id])).length).toBe(1);
  });

  it("detaches its sole projects by default, and shared projects only lose the team", async () => {
    const { admin, ws } = await workspace();
    const eng = (await createTeam(admin, "ENG")).data!.team;
    const ops = (await createTeam(admin, "OPS")).data!.team;
    const issue = await insertIssue(eng.id, "Doomed");
    const sole = await insertProject(ws.id, "Sole", [eng.id]);
    const shared = await insertProject(ws.id, "Shared", [eng.id, ops.id]);
    const res = await admin.DELETE("/teams/{key}", { params: { path: { key: "ENG" } } });
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({ deleted: true, deletedProjects: 0, detachedProjects: 1 });
    expect((await admin.GET("/teams/all")).data!.teams.map((t) => t.key)).toEqual(["OPS"]);
    expect(await srv.query("select 1 from issues where id = $1", [issue.id])).toEqual([]);
    const links = await srv.query<{ project_id: string; team_id: string }>(
      "select project_id, team_id from project_teams where project_id = any($1) order by project_id",
      [[sole, shared]],
    );
    expect(links).toEqual([{ project_id: shared, team_id: ops.id }]);
    expect((await srv.query("select id from projects where workspace_id = $1", [ws.id])).length).toBe(2);
    const recorded = await changes(ws.id, "issue");
    expect(recorded).toEqual([
      { action: "deleted", entity_id: issue.id, team_key: "ENG", identifier: "ENG-1" },
    ]);
    expect((await changes(ws.id, "team")).at(-1)).toMatchObject({ action: "deleted", entity_id: eng.id });
  });

  it("deletes its sole projects with deleteProjects=true", async () => {
    const { admin, ws } = await workspace();
    const eng = (await createTeam(admin, "ENG")).data!.team;
    const ops = (await createTeam(admin, "OPS")).data!.team;
    const sole = await insertProject(ws.id, "Sole", [eng.id]);
    const shared = await insertProject(ws.id, "Shared", [eng.id, ops.id]);
    const res = await admin.DELETE("/teams/{key}", {
      params: { path: { key: "ENG" }, query: { deleteProjects: true } },
    });
    expect(res.error).toBeUndefined();
    expect(res.data).toEqual({ deleted: true, deletedProjects: 1, detachedProjects: 0 });
    expect(await srv.query("select id from projects where workspace_id = $1", [ws.id])).toEqual([
      { id: shared },
    ]);
    expect((await changes(ws.id, "project")).map((c) => [c.action, c.entity_id])).toEqual([
      ["deleted", sole],
      ["updated", shared],
    ]);
  });

  it("answers 404 for an unknown team", async () => {
    const { admin } = await workspace();
    const res = await admin.DELETE("/teams/{key}", { params: { path: { key: "NOPE" } } });
    expect(res.response.status).toBe(404);
  });
});

describe("team members", () => {
  it("lists members and every workspace member, sorted by name", async () => {
    const { admin, adminToken, adminId } = await workspace();
    const bob = await member(adminToken);
    await createTeam(admin, "ENG");
    const res = await admin.GET("/teams/{key}/members", { params: { path: { key: "ENG" } } });
    expect(res.data!.members.map((m) => m.id)).toEqual([adminId]);
    expect(res.data!.workspaceMembers.map((m) => m.id).sort()).toEqual([adminId, bob.id].sort());
    const names = res.data!.workspaceMembers.map((m) => m.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it("admins and non-guest team members may add people; others get 403; non-members of the workspace 404", async () => {
    const { admin, adminToken, adminId, ws } = await workspace();
    const bob = await member(adminToken);
    const carol = await member(adminToken);
    const guest = await member(adminToken, "guest");
    const eng = (await createTeam(admin, "ENG")).data!.team;
    const path = { params: { path: { key: "ENG" } } };

    // Bob is not in the team yet: refused.
    const notIn = await bob.api.POST("/teams/{key}/members", { ...path, body: { userId: carol.id } });
    expect(notIn.response.status).toBe(403);
    expect(notIn.error!.code).toBe("forbidden");

    expect(
      (await admin.POST("/teams/{key}/members", { ...path, body: { userId: bob.id } })).response.status,
    ).toBe(200);
    expect(
      (await admin.POST("/teams/{key}/members", { ...path, body: { userId: bob.id } })).response.status,
    ).toBe(200);
    expect(
      (await bob.api.POST("/teams/{key}/members", { ...path, body: { userId: carol.email } })).response
        .status,
    ).toBe(200);
    expect(
      (await admin.POST("/teams/{key}/members", { ...path, body: { userId: guest.id } })).response.status,
    ).toBe(200);
    // A guest in the team still may not add people.
    const byGuest = await guest.api.POST("/teams/{key}/members", { ...path, body: { userId: "me" } });
    expect(byGuest.response.status).toBe(403);

    const outsider = await workspace();
    const foreign = await admin.POST("/teams/{key}/members", { ...path, body: { userId: outsider.adminId } });
    expect(foreign.response.status).toBe(404);
    expect(foreign.error!.code).toBe("not_found");

    const rows = await srv.query<{ user_id: string }>("select user_id from team_members where team_id = $1", [
      eng.id,
    ]);
    expect(rows.map((r) => r.user_id).sort()).toEqual([adminId, bob.id, carol.id, guest.id].sort());
    const added = (await changes(ws.id, "member")).filter((c) => c.entity_id !== adminId);
    expect(added.map((c) => c.entity_id).sort()).toEqual([bob.id, carol.id, guest.id].sort());
  });

  it("members may leave; only admins remove others; removing a non-member is 404", async () => {
    const { admin, adminToken, adminId } = await workspace();
    const bob = await member(adminToken);
    const carol = await member(adminToken);
    const eng = (await createTeam(admin, "ENG")).data!.team;
    for (const u of [bob, carol]) {
      await admin.POST("/teams/{key}/members", { params: { path: { key: "ENG" } }, body: { userId: u.id } });
    }
    const remove = (api: ApiClient, userId: string) =>
      api.DELETE("/teams/{key}/members/{userId}", { params: { path: { key: "ENG", userId } } });

    const refused = await remove(bob.api, carol.id);
    expect(refused.response.status).toBe(403);
    expect(refused.error!.code).toBe("forbidden");
    expect((await remove(bob.api, "me")).response.status).toBe(200);
    expect((await remove(admin, carol.id)).response.status).toBe(200);
    const again = await remove(admin, carol.id);
    expect(again.response.status).toBe(404);
    expect((await remove(admin, "not-a-user")).response.status).toBe(404);
    const left = await srv.query<{ user_id: string }>("select user_id from team_members where team_id = $1", [
      eng.id,
    ]);
    expect(left).toEqual([{ user_id: adminId }]);
  });
});

describe("workflow rules", () => {
  async function teamWithProject() {
    const w = await workspace();
    const eng = (await createTeam(w.admin, "ENG")).data!.team;
    const ops = (await createTeam(w.admin, "OPS")).data!.team;
    const project = await insertProject(w.ws.id, "Launch", [eng.id]);
    const opsProject = await insertProject(w.ws.id, "Ops only", [ops.id]);
    return { ...w, eng, ops, project, opsProject };
  }
  const path = { params: { path: { key: "ENG" } } };

  it("lists states with color and position, the team's projects, and no rules at first", async () => {
    const { admin, project } = await teamWithProject();
    const res = await admin.GET("/teams/{key}/workflows", path);
    expect(res.data!.workflows).toEqual([]);
    expect(res.data!.states.map((s) => [s.name, s.position])).toEqual([
      ["Backlog", 0],
      ["Todo", 1],
      ["In Progress", 2],
      ["In Review", 3],
      ["Done", 4],
      ["Canceled", 5],
    ]);
    expect(res.data!.states[0]!.color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(res.data!.projects).toEqual([{ id: project, name: "Launch" }]);
  });

  it("creates (201), replaces (200, same id) and deletes rules, per team, trigger and project", async () => {
    const { admin, eng, project, ws } = await teamWithProject();
    const [inProgress, inReview, done] = [eng.states[2]!, eng.states[3]!, eng.states[4]!];
    const created = await admin.POST("/teams/{key}/workflows", {
      ...path,
      body: { trigger: "pr_opened", targetStateId: inProgress.id },
    });
    expect(created.response.status).toBe(201);
    expect(created.data).toEqual({
      id: expect.any(String),
      trigger: "pr_opened",
      projectId: null,
      targetStateId: inProgress.id,
    });
    const replaced = await admin.POST("/teams/{key}/workflows", {
      ...path,
      body: { trigger: "pr_opened", targetStateId: inReview.id, projectId: null },
    });
    expect(replaced.response.status).toBe(200);
    expect(replaced.data).toEqual({ ...created.data, targetStateId: inReview.id });
    const perProject = await admin.POST("/teams/{key}/workflows", {
      ...path,
      body: { trigger: "pr_opened", targetStateId: done.id, projectId: project },
    });
    expect(perProject.response.status).toBe(201);
    expect(perProject.data!.id).not.toBe(created.data!.id);

    const listed = await admin.GET("/teams/{key}/workflows", path);
    expect(listed.data!.workflows).toEqual([replaced.data, perProject.data]);

    const del = await admin.DELETE("/teams/{key}/workflows/{ruleId}", {
      params: { path: { key: "ENG", ruleId: created.data!.id } },
    });
    expect(del.response.status).toBe(200);
    expect((await admin.GET("/teams/{key}/workflows", path)).data!.workflows).toEqual([perProject.data]);
    expect((await changes(ws.id, "workflow")).map((c) => c.action)).toEqual([
      "created",
      "updated",
      "created",
      "deleted",
    ]);
  });

  it("checks the project's teams as they are once a concurrent change of them is done", async () => {
    const { admin, eng, project } = await teamWithProject();
    // Another transaction takes ENG off the project (project row first, as PATCH /projects does).
    const [rule] = await whileHolding(
      srv,
      [
        ["update projects set updated_at = now() where id = $1", [project]],
        ["delete from project_teams where project_id = $1", [project]],
      ],
      () =>
        admin.POST("/teams/{key}/workflows", {
          ...path,
          body: { trigger: "pr_merged", targetStateId: eng.states[4]!.id, projectId: project },
        }),
    );
    expect((await rule).response.status).toBe(400);
    expect((await admin.GET("/teams/{key}/workflows", path)).data!.workflows).toEqual([]);
  });

  it("refuses a state or project that is not the team's (400), and changes nothing", async () => {
    const { admin, eng, ops, opsProject } = await teamWithProject();
    const otherState = await admin.POST("/teams/{key}/workflows", {
      ...path,
      body: { trigger: "pr_merged", targetStateId: ops.states[4]!.id },
    });
    expect(otherState.response.status).toBe(400);
    expect(otherState.error!.code).toBe("invalid_request");
    const garbage = await admin.POST("/teams/{key}/workflows", {
      ...path,
      body: { trigger: "pr_merged", targetStateId: "not-an-id" },
    });
    expect(garbage.response.status).toBe(400);
    const otherProject = await admin.POST("/teams/{key}/workflows", {
      ...path,
      body: { trigger: "pr_merged", targetStateId: eng.states[4]!.id, projectId: opsProject },
    });
    expect(otherProject.response.status).toBe(400);
    const unknownTrigger = await admin.POST("/teams/{key}/workflows", {
      ...path,
      body: { trigger: "pr_renamed" as never, targetStateId: eng.states[4]!.id },
    });
    expect(unknownTrigger.response.status).toBe(400);
    expect(await srv.query("select 1 from workflow_rules where team_id = $1", [eng.id])).toEqual([]);
  });

  it("lets only admins and non-guest team members change rules; another team's rule is 404", async () => {
    const { admin, adminToken, eng, ops } = await teamWithProject();
    const bob = await member(adminToken);
    const body = { trigger: "pr_opened" as const, targetStateId: eng.states[2]!.id };
    const outside = await bob.api.POST("/teams/{key}/workflows", { ...path, body });
    expect(outside.response.status).toBe(403);
    expect(outside.error!.code).toBe("forbidden");
    await bob.api.POST("/teams/{key}/join", path);
    const rule = await bob.api.POST("/teams/{key}/workflows", { ...path, body });
    expect(rule.response.status).toBe(201);

    const opsRule = await admin.POST("/teams/{key}/workflows", {
      params: { path: { key: "OPS" } },
      body: { trigger: "pr_opened", targetStateId: ops.states[2]!.id },
    });
    const cross = await admin.DELETE("/teams/{key}/workflows/{ruleId}", {
      params: { path: { key: "ENG", ruleId: opsRule.data!.id } },
    });
    expect(cross.response.status).toBe(404);
    expect(cross.error!.code).toBe("not_found");
    expect((await srv.query("select 1 from workflow_rules where id = $1", [opsRule.data!.id])).length).toBe(
      1,
    );
    const bogus = await admin.DELETE("/teams/{key}/workflows/{ruleId}", {
      params: { path: { key: "ENG", ruleId: "nope" } },
    });
    expect(bogus.response.status).toBe(404);
  });
});

describe("reading one team", () => {
  it("answers a team by key or id as createTeam does, with joined and its member count; hidden ones are 404", async () => {
    const { admin, adminToken } = await workspace();
    const created = (await createTeam(admin, "RDT", { name: "Readers" })).data!.team;
    const bob = await member(adminToken);
    await admin.POST("/teams/{key}/members", { params: { path: { key: "RDT" } }, body: { userId: bob.id } });

    const byKey = await admin.GET("/teams/{key}", { params: { path: { key: "RDT" } } });
    expect(byKey.response.status).toBe(200);
    expect(byKey.data!.team).toEqual({ ...created, joined: true, memberCount: 2 });
    expect(byKey.data!.team.states.map((s) => s.name)).toEqual([
      "Backlog",
      "Todo",
      "In Progress",
      "In Review",
      "Done",
      "Canceled",
    ]);
    const byId = await admin.GET("/teams/{key}", { params: { path: { key: created.id } } });
    expect(byId.data!.team).toEqual(byKey.data!.team);

    // A member who has not joined reads it too, as the directory shows it; a guest does not see it.
    const carol = await member(adminToken);
    const seen = await carol.api.GET("/teams/{key}", { params: { path: { key: "RDT" } } });
    expect(seen.data!.team).toMatchObject({ key: "RDT", joined: false, memberCount: 2 });
    const guest = await member(adminToken, "guest");
    const hidden = await guest.api.GET("/teams/{key}", { params: { path: { key: "RDT" } } });
    expect(hidden.response.status).toBe(404);
    expect(hidden.error?.code).toBe("not_found");

    // Someone's personal space is theirs alone.
    await createTeam(bob.api, "BOBS", { personal: true });
    const other = await admin.GET("/teams/{key}", { params: { path: { key: "BOBS" } } });
    expect(other.response.status).toBe(404);
    const missing = await admin.GET("/teams/{key}", { params: { path: { key: "NOPE" } } });
    expect(missing.response.status).toBe(404);
  });
});
