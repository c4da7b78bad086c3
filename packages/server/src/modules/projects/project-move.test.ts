import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { driftedLabelIds, driftedProjectTeamIds } from "../../test/derived-counts.js";
import { type ApiClient, useTestServer } from "../../test/harness.js";
import { whileHolding } from "../../test/hold.js";
import { addIssue, addTeam, type FixtureTeam, snapshot } from "./planning.fixtures.js";

const srv = useTestServer();

const TARGET_STATES = [
  { name: "Backlog", type: "backlog" },
  { name: "Todo", type: "unstarted" },
  { name: "Doing", type: "started" },
  { name: "Done", type: "completed" },
  { name: "Canceled", type: "canceled" },
] as const;

async function label(workspaceId: string, name: string) {
  const id = randomUUID();
  await srv.query(
    "insert into labels (id, workspace_id, name, color, created_at, updated_at) values ($1, $2, $3, '#123456', now(), now())",
    [id, workspaceId, name],
  );
  return id;
}

interface World {
  api: ApiClient;
  token: string;
  source: { id: string; slug: string; name: string };
  target: { id: string; slug: string; name: string };
  userId: string;
  eng: FixtureTeam;
  ops: FixtureTeam;
  dst: FixtureTeam;
  member: { token: string; userId: string; email: string };
  both: { token: string; userId: string; email: string };
  projectId: string;
  issues: Record<string, { id: string; identifier: string }>;
  labels: Record<string, string>;
  cycleId: string;
}

/**
 * Source workspace with ENG and OPS and the project "Rocket" (3 issues), ties to issues that stay behind,
 * and a target workspace (same admin) with team DST whose workflow differs and which holds a "BUG" label.
 */
async function world(): Promise<World> {
  const boot = await srv.bootstrap();
  const { apiKey, workspace: source, user } = boot;
  const targetBoot = await srv.bootstrap({ email: user.email, name: user.name });
  const target = targetBoot.workspace;
  const api = srv.client(apiKey.token, { "X-Service-Workspace": source.slug });
  const member = await srv.addMember(apiKey.token, "member");
  const both = await srv.addMember(apiKey.token, "member");
  await srv.query(
    "insert into memberships (id, workspace_id, user_id, role, created_at) values ($1, $2, $3, 'member', now())",
    [randomUUID(), target.id, both.userId],
  );
  const eng = await addTeam(srv, source.id, "ENG", [user.id]);
  const ops = await addTeam(srv, source.id, "OPS", [user.id]);
  const dst = await addTeam(srv, target.id, "DST", [user.id], { states: [...TARGET_STATES] });
  await addIssue(srv, target.id, dst, { title: "Already there" }); // DST-1

  const initiative = await api.POST("/initiatives", { body: { name: "Space", status: "active" } });
  const created = await api.POST("/projects", {
    body: { name: "Rocket", teams: ["ENG", "OPS"], status: "started", lead: "me", initiative: "Space" },
  });
  expect(initiative.response.status).toBe(201);
  const projectId = created.data!.project.id;
  await srv.query("insert into project_members (project_id, user_id) values ($1, $2), ($1, $3)", [
    projectId,
    member.userId,
    both.userId,
  ]);
  const cycleId = randomUUID();
  await srv.query(
    `insert into cycles (id, team_id, number, starts_at, ends_at, created_at)
     values ($1, $2, 1, now() - interval '1 day', now() + interval '13 days', now())`,
    [cycleId, eng.id],
  );
  const e1 = await addIssue(srv, source.id, eng, { projectId, assigneeId: both.userId, state: "Todo" });
  const e2 = await addIssue(srv, source.id, eng, {
    projectId,
    assigneeId: member.userId,
    state: "In Progress",
    cycleId,
  });
  const stay = await addIssue(srv, source.id, eng, { title: "Stays" });
  const o1 = await addIssue(srv, source.id, ops, { projectId, state: "Done", parentId: stay.id });
  const child = await addIssue(srv, source.id, eng, { title: "Child stays", parentId: e2.id });

  const labels = { bug: await label(source.id, "bug"), frontend: await label(source.id, "Frontend") };
  const targetBug = await label(target.id, "BUG");
  await srv.query("insert into issue_labels (issue_id, label_id) values ($1, $2), ($3, $4), ($5, $2)", [
    e1.id,
    labels.bug,
    e2.id,
    labels.frontend,
    o1.id,
  ]);
  await srv.query(
    `insert into issue_relations (id, workspace_id, type, issue_id, related_issue_id, created_at)
     values ($1, $3, 'blocks', $4, $5, now()), ($2, $3, 'related', $4, $6, now())`,
    [randomUUID(), randomUUID(), source.id, e1.id, stay.id, o1.id],
  );
  const docId = randomUUID();
  await srv.query(
    `insert into documents (id, workspace_id, team_id, title, created_at, updated_at)
     values ($1, $2, $3, 'Spec', now(), now())`,
    [docId, source.id, eng.id],
  );
  await srv.query("insert into document_issues (document_id, issue_id) values ($1, $2)", [docId, e1.id]);
  await srv.query(
    `insert into status_updates (id, workspace_id, project_id, title, content, health, creator_id, created_at)
     values ($1, $2, $3, 'Week 1', 'Going', 'on_track', $4, now())`,
    [randomUUID(), source.id, projectId, user.id],
  );
  await srv.query(
    `insert into workflow_rules (id, team_id, trigger, project_id, target_state_id, created_at)
     values ($1, $2, 'pr_opened', $3, $4, now())`,
    [randomUUID(), eng.id, projectId, eng.states["In Review"]!.id],
  );
  return {
    api,
    token: apiKey.token,
    source,
    target,
    userId: user.id,
    eng,
    ops,
    dst,
    member,
    both,
    projectId,
    issues: { e1, e2, o1, stay, child },
    labels: { ...labels, targetBug },
    cycleId,
  };
}

/** Asserts a query finds nothing (showing what it found otherwise). */
const none = async (text: string, params: unknown[] = []) =>
  expect(await srv.query(text, params)).toEqual([]);

const move = (api: ApiClient, id: string, body: { workspace?: string; team?: string }) =>
  api.POST("/projects/{id}/move", { params: { path: { id } }, body });

describe("moveProject to another workspace", () => {
  it("moves the project and its issues, remapping workspace data, and reports what moved and what was cleared", async () => {
    const w = await world();
    const res = await move(w.api, "rocket", { workspace: w.target.slug, team: "DST" });
    expect(res.response.status).toBe(200);
    expect(res.data!.moved).toEqual({
      project: { id: w.projectId, name: "Rocket", workspace: w.target },
      teamKey: "DST",
      issues: 3,
      identifiers: [
        { from: "ENG-1", to: "DST-2" },
        { from: "ENG-2", to: "DST-3" },
        { from: "OPS-1", to: "DST-4" },
      ],
      labelsCreated: ["Frontend"],
      cleared: {
        initiative: true,
        lead: false,
        projectMembers: 1,
        assignees: 1,
        cycles: 1,
        relations: 1,
        parents: 2,
        documentLinks: 1,
        updateLinks: 0,
        workflowRules: 1,
      },
    });

    const issues = await srv.query<{
      id: string;
      workspace_id: string;
      number: number;
      state: string;
      state_type: string;
      assignee_id: string | null;
      cycle_id: string | null;
      parent_id: string | null;
      labels: string[];
    }>(
      `select i.id, i.workspace_id, i.number, s.name as state, i.state_type, i.assignee_id, i.cycle_id, i.parent_id,
              coalesce((select array_agg(l.workspace_id || ':' || l.name order by l.name) from issue_labels il
                          join labels l on l.id = il.label_id where il.issue_id = i.id), '{}') as labels
         from issues i join workflow_states s on s.id = i.state_id where i.project_id = $1 order by i.number`,
      [w.projectId],
    );
    expect(issues).toEqual([
      {
        id: w.issues.e1!.id,
        workspace_id: w.target.id,
        number: 2,
        state: "Todo",
        state_type: "unstarted",
        assignee_id: w.both.userId,
        cycle_id: null,
        parent_id: null,
        labels: [`${w.target.id}:BUG`],
      },
      {
        id: w.issues.e2!.id,
        workspace_id: w.target.id,
        number: 3,
        state: "Doing",
        state_type: "started",
        assignee_id: null,
        cycle_id: null,
        parent_id: null,
        labels: [`${w.target.id}:Frontend`],
      },
      {
        id: w.issues.o1!.id,
        workspace_id: w.target.id,
        number: 4,
        state: "Done",
        state_type: "completed",
        assignee_id: null,
        cycle_id: null,
        parent_id: null,
        labels: [`${w.target.id}:BUG`],
      },
    ]);
    const child = await srv.query("select parent_id, workspace_id from issues where id = $1", [
      w.issues.child!.id,
    ]);
    expect(child).toEqual([{ parent_id: null, workspace_id: w.source.id }]);
    const relations = await srv.query("select type, workspace_id from issue_relations where issue_id = $1", [
      w.issues.e1!.id,
    ]);
    expect(relations).toEqual([{ type: "related", workspace_id: w.target.id }]);
    const project = await srv.query(
      `select p.workspace_id, p.initiative_id, p.lead_id,
              (select array_agg(team_id) from project_teams where project_id = p.id) as teams,
              (select array_agg(user_id) from project_members where project_id = p.id) as members,
              (select array_agg(workspace_id) from status_updates where project_id = p.id) as updates
         from projects p where p.id = $1`,
      [w.projectId],
    );
    expect(project).toEqual([
      {
        workspace_id: w.target.id,
        initiative_id: null,
        lead_id: w.userId,
        teams: [w.dst.id],
        members: [w.both.userId],
        updates: [w.target.id],
      },
    ]);
    const activity = await srv.query<{ workspace_id: string; payload: { to: { identifier: string } } }>(
      "select workspace_id, payload from activity_events where type = 'issue_moved' and issue_id = $1",
      [w.issues.e2!.id],
    );
    expect(activity).toEqual([
      {
        workspace_id: w.target.id,
        payload: {
          from: { identifier: "ENG-2", team: { id: w.eng.id, key: "ENG", name: "Team ENG" } },
          to: { identifier: "DST-3", team: { id: w.dst.id, key: "DST", name: "Team DST" } },
        },
      },
    ]);
    const changes = await srv.query(
      `select workspace_id = $2 as in_source, entity, action from change_events
        where entity_id = any($1) order by id`,
      [[w.projectId, w.issues.e1!.id], w.source.id],
    );
    expect(changes).toEqual(
      expect.arrayContaining([
        { in_source: true, entity: "project", action: "deleted" },
        { in_source: false, entity: "project", action: "created" },
        { in_source: true, entity: "issue", action: "deleted" },
        { in_source: false, entity: "issue", action: "created" },
      ]),
    );

    const ties = await srv.query(
      `select entity, action, team_key from change_events
        where workspace_id = $1 and entity in ('issue_relation', 'workflow', 'document', 'update') order by entity`,
      [w.source.id],
    );
    expect(ties).toEqual([
      { entity: "document", action: "updated", team_key: "ENG" },
      { entity: "issue_relation", action: "deleted", team_key: "ENG" },
      { entity: "update", action: "deleted", team_key: null },
      { entity: "workflow", action: "deleted", team_key: "ENG" },
    ]);

    // Each workspace's list shows where the project now is, with its progress.
    expect((await w.api.GET("/projects", {})).data!.projects.map((p) => p.name)).toEqual([]);
    const inTarget = srv.client(w.token, { "X-Service-Workspace": w.target.slug });
    const listed = (await inTarget.GET("/projects", {})).data!.projects;
    expect(listed.map((p) => [p.name, p.progress.done, p.progress.total, p.teams.map((t) => t.key)])).toEqual(
      [["Rocket", 1, 3, ["DST"]]],
    );
    // Old identifiers resolve where the issue now lives; the source workspace answers 404.
    const there = await inTarget.GET("/issues/{identifier}", { params: { path: { identifier: "ENG-2" } } });
    expect(there.data?.issue.identifier).toBe("DST-3");
    const here = await w.api.GET("/issues/{identifier}", { params: { path: { identifier: "ENG-2" } } });
    expect(here.response.status).toBe(404);
  });

  it("writes queued behind the move find the issue gone, and put nothing of this workspace on it", async () => {
    const w = await world();
    const e1 = w.issues.e1!;
    // An issue of its own (no tie the move would touch), to be made a child of the moving one.
    const loner = (await w.api.POST("/issues", { body: { team: "ENG", title: "Loner" } })).data!.issue;
    // Hold the issue, so the move queues for it first and the writes queue behind the move.
    const path = { params: { path: { identifier: e1.identifier } } };
    const [moving, writes] = await whileHolding(
      srv,
      [["select id from issues where id = $1 for update", [e1.id]]],
      () => move(w.api, w.projectId, { workspace: w.target.slug, team: "DST" }),
      () =>
        Promise.all([
          w.api.PATCH("/issues/{identifier}", { ...path, body: { labels: ["bug", "Queued"] } }),
          w.api.POST("/issues/{identifier}/comments", { ...path, body: { body: "Queued comment" } }),
          w.api.POST("/issues/{identifier}/links", { ...path, body: { url: "https://example.com/queued" } }),
          w.api.POST("/documents", { body: { title: "Queued doc", team: "ENG", issues: [e1.identifier] } }),
          w.api.PATCH("/issues/{identifier}", {
            params: { path: { identifier: loner.identifier } },
            body: { parent: e1.identifier },
          }),
        ]),
    );
    expect((await moving).response.status).toBe(200);
    expect((await writes).map((r) => r.response.status)).toEqual([404, 404, 404, 404, 404]);
    const [moved] = await srv.query<{ workspace_id: string }>(
      "select workspace_id from issues where id = $1",
      [e1.id],
    );
    expect(moved!.workspace_id).toBe(w.target.id);
    // Nothing of the source workspace hangs off the moved issue.
    await none(
      `select l.name from issue_labels il join labels l on l.id = il.label_id
          where il.issue_id = $1 and l.workspace_id <> $2`,
      [e1.id, w.target.id],
    );
    await none("select 1 from comments where issue_id = $1 and body = 'Queued comment'", [e1.id]);
    await none("select 1 from issue_links where issue_id = $1", [e1.id]);
    await none(
      `select 1 from issue_relations r join issues a on a.id = r.issue_id join issues b on b.id = r.related_issue_id
          where (r.issue_id = $1 or r.related_issue_id = $1) and a.workspace_id <> b.workspace_id`,
      [e1.id],
    );
    await none("select 1 from documents where title = 'Queued doc'");
    await none("select 1 from issues where id = $1 and parent_id = $2", [loner.id, e1.id]);
  });

  it("project writes queued behind the move find it gone, and attach nothing of this workspace", async () => {
    const w = await world();
    const id = { params: { path: { id: w.projectId } } };
    const [moving, writes] = await whileHolding(
      srv,
      [["select id from projects where id = $1 for update", [w.projectId]]],
      () => move(w.api, w.projectId, { workspace: w.target.slug, team: "DST" }),
      () =>
        Promise.all([
          w.api.PATCH("/projects/{id}", { ...id, body: { teams: ["ENG", "OPS"], initiative: "Space" } }),
          w.api.POST("/projects/{id}/members", { ...id, body: { user: w.member.email } }),
          w.api.POST("/updates", { body: { project: w.projectId, title: "Queued update", content: "Late" } }),
        ]),
    );
    expect((await moving).response.status).toBe(200);
    expect((await writes).map((r) => r.response.status)).toEqual([404, 404, 404]);
    // Every team, initiative and update of the moved project is the target workspace's.
    await none(
      `select t.key from project_teams pt join teams t on t.id = pt.team_id
          where pt.project_id = $1 and t.workspace_id <> $2`,
      [w.projectId, w.target.id],
    );
    await none(
      `select n.name from projects p join initiatives n on n.id = p.initiative_id
          where p.id = $1 and n.workspace_id <> p.workspace_id`,
      [w.projectId],
    );
    await none("select 1 from status_updates where title = 'Queued update'");
    await none("select 1 from project_members where project_id = $1 and user_id = $2", [
      w.projectId,
      w.member.userId,
    ]);
  });

  it("takes the project's updates along without their citations of issues that stay behind", async () => {
    const w = await world();
    const update = await w.api.POST("/updates", {
      body: {
        project: w.projectId,
        title: "Week 2",
        content: "Rocket and its neighbour",
        issues: [w.issues.e1!.identifier, w.issues.stay!.identifier],
      },
    });
    expect(update.response.status).toBe(201);
    expect((await move(w.api, w.projectId, { workspace: w.target.slug, team: "DST" })).response.status).toBe(
      200,
    );
    const there = srv.client(w.token, { "X-Service-Workspace": w.target.slug });
    const listed = await there.GET("/updates", { params: { query: { project: w.projectId } } });
    const week2 = listed.data!.updates.find((u) => u.title === "Week 2")!;
    // The moved issue is cited under its new identifier; the one that stayed is not cited at all.
    expect(week2.issues).toEqual([
      { identifier: expect.stringMatching(/^DST-\d+$/), title: expect.any(String) },
    ]);
    await none(
      `select 1 from status_update_issues sui join status_updates su on su.id = sui.update_id
         join issues i on i.id = sui.issue_id where su.id = $1 and i.workspace_id <> su.workspace_id`,
      [update.data!.update.id],
    );
  });

  it("refuses callers who are not admin here or in the target, changing nothing", async () => {
    const w = await world();
    // An admin elsewhere who is only a member of our target workspace.
    const other = await srv.bootstrap();
    const asMember = await srv.addMember(other.apiKey.token, "member", (await userEmail(w.userId)) as string);
    expect(asMember.userId).toBe(w.userId);
    const before = await snapshot(srv);

    const byMember = await move(srv.client(w.member.token), w.projectId, {
      workspace: w.target.slug,
      team: "DST",
    });
    expect(byMember.response.status).toBe(403);
    expect(byMember.error?.code).toBe("admin_required");
    const notAdminThere = await move(w.api, w.projectId, { workspace: other.workspace.slug, team: "DST" });
    expect(notAdminThere.response.status).toBe(403);
    expect(notAdminThere.error?.code).toBe("admin_required");
    const stranger = await srv.bootstrap();
    const notMember = await move(w.api, w.projectId, { workspace: stranger.workspace.slug, team: "DST" });
    expect(notMember.response.status).toBe(403);
    expect(notMember.error?.code).toBe("workspace_forbidden");
    const noTeam = await move(w.api, w.projectId, { workspace: w.target.slug });
    expect(noTeam.response.status).toBe(400);
    const missingTeam = await move(w.api, w.projectId, { workspace: w.target.slug, team: "NOPE" });
    expect(missingTeam.response.status).toBe(404);
    expect(await snapshot(srv)).toEqual(before);
  });

  it("rolls everything back when the project's name is taken in the target after its issues moved", async () => {
    const w = await world();
    const inTarget = srv.client(w.token, { "X-Service-Workspace": w.target.slug });
    const taken = await inTarget.POST("/projects", {
      body: { name: "ROCKET", teams: ["DST"], status: "backlog" },
    });
    expect(taken.response.status).toBe(201);
    const before = await snapshot(srv);
    const res = await move(w.api, w.projectId, { workspace: w.target.id, team: w.dst.id });
    expect(res.response.status).toBe(409);
    expect(res.error?.code).toBe("conflict");
    expect(await snapshot(srv)).toEqual(before);
  });
});

async function userEmail(userId: string) {
  return (await srv.query<{ email: string }>("select email from users where id = $1", [userId]))[0]!.email;
}

describe("moveProject within the workspace", () => {
  it("re-homes the project onto one team, moving its other issues there with redirects", async () => {
    const w = await world();
    const res = await move(w.api, w.projectId, { team: "OPS" });
    expect(res.response.status).toBe(200);
    expect(res.data!.moved).toEqual({
      project: { id: w.projectId, name: "Rocket", workspace: w.source },
      teamKey: "OPS",
      issues: 2,
      identifiers: [
        { from: "ENG-1", to: "OPS-2" },
        { from: "ENG-2", to: "OPS-3" },
      ],
      cleared: { cycles: 1 },
    });
    const project = (await w.api.GET("/projects", {})).data!.projects[0]!;
    expect(project.teams.map((t) => t.key)).toEqual(["OPS"]);
    expect(project.progress).toMatchObject({ done: 1, total: 3 });
    const redirected = await w.api.GET("/issues/{identifier}", { params: { path: { identifier: "ENG-2" } } });
    expect(redirected.data?.issue).toMatchObject({
      identifier: "OPS-3",
      state: { name: "In Progress" },
      cycle: null,
    });
    const activity = await srv.query(
      "select count(*)::int as n from activity_events where type = 'issue_moved' and issue_id = $1",
      [w.issues.e1!.id],
    );
    expect(activity).toEqual([{ n: 1 }]);
  });

  it("answers {} with nothing moved", async () => {
    const w = await world();
    const before = await snapshot(srv);
    const res = await move(w.api, w.projectId, {});
    expect(res.data).toEqual({ moved: {} });
    expect(await snapshot(srv)).toEqual(before);
  });
});

// Whatever these tests wrote, the label ids kept on issues (list pages read them) match their labels.
afterEach(async () => {
  expect(await driftedLabelIds(srv)).toEqual([]);
  expect(await driftedProjectTeamIds(srv)).toEqual([]);
});
