import { randomUUID } from "node:crypto";
import type { components } from "@tracker/sdk/schema";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../../test/harness.js";
import { insertIssue } from "../../test/issue-rows.js";

const srv = useTestServer();

type StateType = components["schemas"]["StateType"];

/** A workspace with team ENG, its admin client, and fixture helpers writing to the database. */
async function setup() {
  const boot = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const api = srv.client(boot.apiKey.token);
  const workspaceId = boot.workspace.id;
  const teamId: string = boot.team!.id;

  const issue = (
    title: string,
    o: {
      state?: StateType;
      projectId?: string;
      cycleId?: string;
      completedAt?: string;
      assigneeId?: string;
      labels?: string[];
      team?: string;
    } = {},
  ) =>
    insertIssue(srv, workspaceId, o.team ?? teamId, title, {
      ...o,
      stateType: o.state,
      description: `About ${title}`,
      createLabels: true,
    });
  async function project(
    name: string,
    o: { start?: string; target?: string; status?: string; initiativeId?: string; teams?: string[] } = {},
  ): Promise<string> {
    const id = randomUUID();
    await srv.query(
      `insert into projects (id, workspace_id, name, status, initiative_id, start_date, target_date, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6::date, $7::date, now() - interval '30 days', now())`,
      [
        id,
        workspaceId,
        name,
        o.status ?? "started",
        o.initiativeId ?? null,
        o.start ?? null,
        o.target ?? null,
      ],
    );
    for (const team of o.teams ?? [teamId])
      await srv.query("insert into project_teams (project_id, team_id) values ($1, $2)", [id, team]);
    return id;
  }
  async function initiative(name: string, o: { start?: string; target?: string } = {}): Promise<string> {
    const id = randomUUID();
    await srv.query(
      `insert into initiatives (id, workspace_id, name, status, start_date, target_date, created_at, updated_at)
       values ($1, $2, $3, 'active', $4::date, $5::date, now() - interval '30 days', now())`,
      [id, workspaceId, name, o.start ?? null, o.target ?? null],
    );
    return id;
  }
  async function activeCycle(): Promise<string> {
    const id = randomUUID();
    await srv.query(
      `insert into cycles (id, team_id, number, starts_at, ends_at, created_at)
       values ($1, $2, 1, now() - interval '10 days', now() + interval '4 days', now())`,
      [id, teamId],
    );
    return id;
  }
  return { ...boot, api, workspaceId, teamId, issue, project, initiative, activeCycle };
}

/** A calendar date `days` from today (UTC). */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe("status updates: subject", () => {
  it("needs exactly one of team, project or initiative", async () => {
    const { api, project, workspaceId } = await setup();
    await project("Apollo");
    const none = await api.GET("/updates");
    expect(none.response.status).toBe(400);
    expect(none.error!.code).toBe("invalid_request");
    const two = await api.GET("/updates", { params: { query: { team: "ENG", project: "Apollo" } } });
    expect(two.response.status).toBe(400);
    const candidates = await api.GET("/updates/candidates", { params: { query: {} } });
    expect(candidates.response.status).toBe(400);
    const created = await api.POST("/updates", {
      body: { title: "Week 1", content: "Fine", team: "ENG", project: "Apollo" },
    });
    expect(created.response.status).toBe(400);
    const noSubject = await api.POST("/updates", { body: { title: "Week 1", content: "Fine" } });
    expect(noSubject.response.status).toBe(400);
    expect(await srv.query("select 1 from status_updates where workspace_id = $1", [workspaceId])).toEqual(
      [],
    );
    const unknown = await api.GET("/updates", { params: { query: { project: "Nope" } } });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error!.code).toBe("not_found");
  });

  it("refuses a client-sent health and guests, creating nothing", async () => {
    const { api, apiKey, workspaceId } = await setup();
    const withHealth = await api.POST("/updates", {
      body: { title: "All good", content: "Trust me", team: "ENG", health: "on_track" } as never,
    });
    expect(withHealth.response.status).toBe(400);
    expect(withHealth.error!.code).toBe("invalid_request");
    const guest = await srv.addMember(apiKey.token, "guest");
    const refused = await srv
      .client(guest.token)
      .POST("/updates", { body: { title: "Hi", content: "From a guest", team: "ENG" } });
    expect(refused.response.status).toBe(403);
    expect(refused.error!.code).toBe("forbidden");
    expect(await srv.query("select 1 from status_updates where workspace_id = $1", [workspaceId])).toEqual(
      [],
    );
  });

  it("hides projects a guest cannot see", async () => {
    const { api, apiKey, project } = await setup();
    const ops = await api.POST("/teams", { body: { key: "OPS", name: "Operations" } as never });
    await project("Hidden", { teams: [ops.data!.team.id] });
    const guest = await srv.addMember(apiKey.token, "guest");
    const res = await srv.client(guest.token).GET("/updates", { params: { query: { project: "Hidden" } } });
    expect(res.response.status).toBe(404);
  });
});

describe("status updates: posting and listing", () => {
  it("posts updates with cited issues and lists a subject's updates newest first", async () => {
    const { api, user, issue, project, workspaceId } = await setup();
    await project("Apollo");
    await issue("Login");
    await issue("Logout");
    const first = await api.POST("/updates", {
      body: { title: "Week 1", content: "Started.", team: "ENG", issues: ["ENG-2", "eng-1"] },
    });
    expect(first.response.status).toBe(201);
    expect(first.data!.update).toEqual({
      id: expect.any(String),
      title: "Week 1",
      content: "Started.",
      health: "on_track",
      createdAt: expect.any(String),
      creator: { id: user.id, name: user.name },
      issues: [
        { identifier: "ENG-1", title: "Login" },
        { identifier: "ENG-2", title: "Logout" },
      ],
    });
    const second = await api.POST("/updates", { body: { title: "Week 2", content: "Going.", team: "ENG" } });
    await api.POST("/updates", {
      body: { title: "Apollo news", content: "Other subject", project: "apollo" },
    });

    const list = await api.GET("/updates", { params: { query: { team: "ENG" } } });
    expect(list.data!.updates.map((u) => u.title)).toEqual(["Week 2", "Week 1"]);
    expect(list.data!.updates[0]).toEqual(second.data!.update);
    const apollo = await api.GET("/updates", { params: { query: { project: "Apollo" } } });
    expect(apollo.data!.updates.map((u) => u.title)).toEqual(["Apollo news"]);
    const changes = await srv.query(
      "select action, team_key from change_events where workspace_id = $1 and entity = 'update' order by id",
      [workspaceId],
    );
    expect(changes).toEqual([
      { action: "created", team_key: "ENG" },
      { action: "created", team_key: "ENG" },
      { action: "created", team_key: null },
    ]);
  });

  it("refuses citing an issue that does not exist, creating nothing", async () => {
    const { api, workspaceId } = await setup();
    const res = await api.POST("/updates", {
      body: { title: "Week 1", content: "Started.", team: "ENG", issues: ["ENG-9"] },
    });
    expect(res.response.status).toBe(404);
    expect(await srv.query("select 1 from status_updates where workspace_id = $1", [workspaceId])).toEqual(
      [],
    );
  });
});

describe("status updates: health computed by the server", () => {
  const post = async (api: Awaited<ReturnType<typeof setup>>["api"], subject: Record<string, string>) =>
    (await api.POST("/updates", { body: { title: "Update", content: "Text", ...subject } })).data!.update
      .health;

  it("rates a team by its active cycle's progress against elapsed time", async () => {
    const { api, issue, activeCycle } = await setup();
    expect(await post(api, { team: "ENG" })).toBe("on_track"); // no active cycle
    const cycleId = await activeCycle(); // 10 of 14 days elapsed: 71%
    await issue("a", { cycleId, state: "completed" });
    await issue("b", { cycleId });
    await issue("c", { cycleId });
    await issue("d", { cycleId });
    await issue("dropped", { cycleId, state: "canceled" });
    expect(await post(api, { team: "ENG" })).toBe("off_track"); // 25% done
    await srv.query("update issues set state_type = 'completed' where title = 'b' and cycle_id = $1", [
      cycleId,
    ]);
    expect(await post(api, { team: "ENG" })).toBe("at_risk"); // 50%: within 25 points
    await srv.query("update issues set state_type = 'completed' where title = 'c' and cycle_id = $1", [
      cycleId,
    ]);
    expect(await post(api, { team: "ENG" })).toBe("on_track"); // 75%
  });

  it("rates a project by target date versus progress", async () => {
    const { api, issue, project } = await setup();
    await project("No target");
    expect(await post(api, { project: "No target" })).toBe("on_track");
    const late = await project("Late", { start: day(-20), target: day(-1) });
    await issue("done", { projectId: late, state: "completed" });
    await issue("open", { projectId: late });
    expect(await post(api, { project: late })).toBe("off_track");
    const half = await project("Half", { start: day(-10), target: day(10) }); // 50% elapsed
    await issue("done", { projectId: half, state: "completed" });
    for (const t of ["x", "y", "z"]) await issue(t, { projectId: half });
    expect(await post(api, { project: "Half" })).toBe("at_risk"); // 25%
    await issue("more done", { projectId: half, state: "completed" });
    await issue("even more", { projectId: half, state: "completed" });
    expect(await post(api, { project: "Half" })).toBe("on_track"); // 3 of 6
  });

  it("rates an initiative over its counted projects only", async () => {
    const { api, issue, project, initiative } = await setup();
    const goal = await initiative("Goal", { start: day(-10), target: day(10) });
    const counted = await project("Counted", { initiativeId: goal });
    const paused = await project("Paused", { initiativeId: goal, status: "paused" });
    await issue("done 1", { projectId: counted, state: "completed" });
    await issue("done 2", { projectId: counted, state: "completed" });
    for (const t of ["p1", "p2", "p3", "p4", "p5"]) await issue(t, { projectId: paused });
    expect(await post(api, { initiative: "goal" })).toBe("on_track");
    await srv.query("update projects set status = 'started' where id = $1", [paused]);
    expect(await post(api, { initiative: goal })).toBe("at_risk"); // 2 of 7 = 28% vs 50%
  });
});

describe("status updates: candidates", () => {
  it("lists issues completed since the subject's last update, newest first", async () => {
    const { api, issue, project, user, teamId } = await setup();
    await srv.query("update teams set created_at = now() - interval '1 day' where id = $1", [teamId]);
    const apollo = await project("Apollo");
    await srv.query("update users set name = 'Ada' where id = $1", [user.id]);
    await issue("Old work", {
      state: "completed",
      completedAt: new Date(Date.now() - 3600_000).toISOString(),
    });
    await issue("Recent work", {
      state: "completed",
      projectId: apollo,
      assigneeId: user.id,
      labels: ["UI", "Bug"],
      completedAt: new Date(Date.now() - 60_000).toISOString(),
    });
    await issue("Still open");
    await issue("Abandoned", { state: "canceled" });

    const none = await api.GET("/updates/candidates", { params: { query: { team: "ENG" } } });
    const team = await srv.query<{ created_at: Date }>("select created_at from teams where id = $1", [
      teamId,
    ]);
    expect(none.data!.since).toEqual({ update: null, at: team[0]!.created_at.toISOString() });
    expect(none.data!.issues).toEqual([
      {
        identifier: "ENG-2",
        title: "Recent work",
        description: "About Recent work",
        completedAt: expect.any(String),
        assignee: "Ada",
        project: "Apollo",
        labels: ["Bug", "UI"],
      },
      {
        identifier: "ENG-1",
        title: "Old work",
        description: "About Old work",
        completedAt: expect.any(String),
        assignee: null,
        project: null,
        labels: [],
      },
    ]);
    const forProject = await api.GET("/updates/candidates", { params: { query: { project: "Apollo" } } });
    expect(forProject.data!.issues.map((i) => i.identifier)).toEqual(["ENG-2"]);

    const posted = (
      await api.POST("/updates", { body: { title: "Week 1", content: "Done things", team: "ENG" } })
    ).data!.update;
    const after = await api.GET("/updates/candidates", { params: { query: { team: "ENG" } } });
    expect(after.data!.since).toEqual({ update: posted.id, at: posted.createdAt });
    expect(after.data!.issues).toEqual([]);
    await issue("Newer work", { state: "completed" });
    const later = await api.GET("/updates/candidates", { params: { query: { team: "ENG" } } });
    expect(later.data!.issues.map((i) => i.title)).toEqual(["Newer work"]);
  });

  it("takes an initiative's issues from its projects", async () => {
    const { api, issue, project, initiative } = await setup();
    const goal = await initiative("Goal");
    const inside = await project("Inside", { initiativeId: goal });
    const outside = await project("Outside");
    await issue("in", { projectId: inside, state: "completed" });
    await issue("out", { projectId: outside, state: "completed" });
    const res = await api.GET("/updates/candidates", { params: { query: { initiative: "Goal" } } });
    expect(res.data!.issues.map((i) => i.title)).toEqual(["in"]);
  });
});
