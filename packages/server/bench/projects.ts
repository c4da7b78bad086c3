import type { EntityManager } from "@mikro-orm/postgresql";
import pg from "pg";
import { queryInitiatives } from "../src/modules/initiatives/initiative.query.js";
import { type ProjectQuery, projectListQuery } from "../src/modules/projects/project.query.js";
import { adminScope, explainMedian } from "./explain.js";
import { benchWorkspace } from "./seed.js";

/**
 * The planning part of the bench: a workspace of its own (so the issue list's data stays as it is) with
 * 1,000 projects over 10 teams, 30,000 issues spread over them in every state, 50 initiatives, leads,
 * start and target dates around today and some status updates, so every project's progress and health
 * branch is computed on every list request.
 */
export const PLANNING_SIZES = { projects: 1000, issues: 30_000, teams: 10, initiatives: 50, users: 20 };

export interface PlanningSeeded {
  workspaceId: string;
  workspaceSlug: string;
  adminId: string;
  adminToken: string;
  teamKeys: string[];
  counts: Record<string, number>;
  seconds: number;
}

export async function seedPlanningBench(
  em: EntityManager,
  databaseUrl: string,
  sizes = PLANNING_SIZES,
): Promise<PlanningSeeded> {
  const started = Date.now();
  const { boot, ws, teamKeys, teamIds, run } = await benchWorkspace(em, {
    label: "Bench planning",
    admin: "Bench Planner",
    teamPrefix: "P",
    teams: sizes.teams,
  });

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const q = (text: string, params: unknown[] = []) => client.query(text, params);
  try {
    await q("begin");
    await q("select setseed(0.17)");
    await q(
      `create temp table plan_teams on commit drop as
         select (ord - 1)::int as idx, id from unnest($1::uuid[]) with ordinality as t(id, ord)`,
      [teamIds],
    );
    await q(
      `create temp table plan_users on commit drop as
         select (n - 1) as idx, gen_random_uuid() as id from generate_series(1, $1::int) n`,
      [sizes.users],
    );
    await q(
      `insert into users (id, email, name, created_at)
       select id, 'bench-planner-' || idx || '-' || $1 || '@example.com', 'Planner ' || chr(65 + idx % 26) || idx, now()
         from plan_users`,
      [run],
    );
    await q(
      `insert into memberships (id, workspace_id, user_id, role, created_at)
       select gen_random_uuid(), $1, id, 'member', now() from plan_users`,
      [ws],
    );
    await q(
      `insert into initiatives (id, workspace_id, name, status, lead_id, target_date, created_at, updated_at)
       select gen_random_uuid(), $1, 'Initiative ' || n, (array['planned', 'active', 'active', 'completed'])[1 + n % 4],
              case when n % 3 = 0 then null else (select id from plan_users where idx = n % $3::int) end,
              case when n % 5 = 0 then null else current_date + (n * 11 % 180 - 60) end,
              now() - (n % 90) * interval '1 day', now() - (n % 20) * interval '1 day'
         from generate_series(1, $2::int) n`,
      [ws, sizes.initiatives, sizes.users],
    );
    // Statuses cycle through all six; a third without a target; dates spread so every health branch occurs.
    await q(
      `create temp table plan_projects on commit drop as
         select (n - 1) as idx, gen_random_uuid() as id from generate_series(1, $1::int) n`,
      [sizes.projects],
    );
    await q(
      `insert into projects (id, workspace_id, name, description, status, initiative_id, lead_id, start_date,
                             target_date, created_at, updated_at)
       select pp.id, $1, 'Plan ' || pp.idx, 'Bench project',
              (array['backlog', 'planned', 'started', 'started', 'paused', 'completed', 'canceled'])[1 + pp.idx % 7],
              case when pp.idx % 4 = 0 then null
                   else (select id from initiatives where workspace_id = $1 and name = 'Initiative ' || (1 + pp.idx % $2::int)) end,
              case when pp.idx % 5 = 0 then null else (select id from plan_users where idx = pp.idx % $3::int) end,
              current_date - (pp.idx % 60), case when pp.idx % 3 = 0 then null else current_date + (pp.idx * 7 % 120 - 40) end,
              now() - interval '90 days', now() - (pp.idx % 30) * interval '1 day'
         from plan_projects pp`,
      [ws, sizes.initiatives, sizes.users],
    );
    await q(
      `insert into project_teams (project_id, team_id)
       select pp.id, pt.id from plan_projects pp join plan_teams pt on pt.idx = pp.idx % $1::int
       union
       select pp.id, pt.id from plan_projects pp join plan_teams pt on pt.idx = (pp.idx + 3) % $1::int
        where pp.idx % 4 = 1`,
      [sizes.teams],
    );
    // Issues: each in its project's first team; states 20/20/20/30/10 over backlog..canceled.
    await q(
      `insert into issues (id, workspace_id, team_id, number, title, priority, state_id, state_type, project_id,
                           created_at, updated_at, completed_at)
       with g as (select n, n % $2::int as pi, random() as r from generate_series(0, $3::int - 1) n),
            numbered as (
              select g.*, pt.id as team_id, row_number() over (partition by pt.id order by g.n) as num
                from g join plan_teams pt on pt.idx = g.pi % $4::int)
       select gen_random_uuid(), $1, nb.team_id, nb.num, 'Planned work ' || nb.n, (nb.n % 5)::smallint,
              s.id, s.type, pp.id, now() - interval '60 days', now() - (nb.n % 40) * interval '1 day',
              -- Completed and canceled issues carry when they got there, as the service records it.
              case when s.type in ('completed', 'canceled') then now() - (nb.n % 40) * interval '1 day' end
         from numbered nb
         join plan_projects pp on pp.idx = nb.pi
         join workflow_states s on s.team_id = nb.team_id and s.position = case
              when nb.r < 0.2 then 0 when nb.r < 0.4 then 1 when nb.r < 0.6 then 2 when nb.r < 0.9 then 4 else 5 end`,
      [ws, sizes.projects, sizes.issues, sizes.teams],
    );
    await q(
      `update teams t set issue_counter = m.n from (select team_id, max(number) n from issues group by team_id) m
        where m.team_id = t.id and t.workspace_id = $1`,
      [ws],
    );
    await q(
      `insert into status_updates (id, workspace_id, project_id, title, content, health, created_at)
       select gen_random_uuid(), $1, pp.id, 'Weekly', 'On it', 'on_track', now() - (pp.idx % 14) * interval '1 day'
         from plan_projects pp where pp.idx % 2 = 0`,
      [ws],
    );
    await q("commit");
    // Vacuum too (not only analyze), as autovacuum would soon after a bulk load: index-only scans need the
    // visibility map, and the load updated each project's counts row once per issue (30 dead versions each).
    await q(
      "vacuum (analyze) issues, projects, project_teams, project_issue_counts, initiatives, status_updates",
    );
    // A vacuum marks a page all-visible only once no snapshot older than the load is left; right after
    // the issue seed one often still is (likely autovacuum's ANALYZE of the 100,000 issues), which left the
    // planning issues' pages unmarked: a heap fetch per counted issue, 30,000 per computed project list.
    // Vacuum again until the visibility map covers the table (bounded: a shared DATABASE_URL may not get there).
    for (let attempt = 0; attempt < 20; attempt++) {
      const { rows } = await q("select relallvisible, relpages from pg_class where oid = 'issues'::regclass");
      if (rows[0].relallvisible >= rows[0].relpages) break;
      await new Promise((r) => setTimeout(r, 250));
      await q("vacuum issues");
    }

    const counts: Record<string, number> = {};
    for (const [name, text] of Object.entries({
      planningProjects: "select count(*) from projects where workspace_id = $1",
      planningIssues: "select count(*) from issues where workspace_id = $1",
      planningInitiatives: "select count(*) from initiatives where workspace_id = $1",
    }))
      counts[name] = Number((await q(text, [ws])).rows[0].count);
    return {
      workspaceId: ws,
      workspaceSlug: boot.workspace.slug,
      adminId: boot.user.id,
      adminToken: boot.apiKey.token,
      teamKeys,
      counts,
      seconds: (Date.now() - started) / 1000,
    };
  } catch (err) {
    await q("rollback").catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

/** The request paths of the project list case: every sort key and the computed filters, rotating. */
export function projectListPaths(seeded: PlanningSeeded): string[] {
  const api = "/api/v1";
  return [
    `${api}/projects`,
    `${api}/projects?sort=health`,
    `${api}/projects?sort=-progress`,
    `${api}/projects?sort=scope&limit=200`,
    `${api}/projects?special=off_track`,
    `${api}/projects?special=stale,no_lead`,
    `${api}/projects?special=update_overdue`,
    `${api}/projects?health=at_risk,off_track&sort=target`,
    `${api}/projects?team=${seeded.teamKeys[2]}&sort=lead`,
    `${api}/projects?status=started,planned&sort=-status&offset=100`,
  ];
}

const PROJECT_SHAPES: { name: string; query: ProjectQuery }[] = [
  { name: "default sort (-updated), first page", query: { limit: 50 } },
  { name: "sort health", query: { sort: "health", limit: 50 } },
  { name: "sort -progress", query: { sort: "-progress", limit: 50 } },
  { name: "special off_track", query: { special: ["off_track"], limit: 50 } },
  { name: "special stale", query: { special: ["stale"], limit: 50 } },
  { name: "special update_overdue", query: { special: ["update_overdue"], limit: 50 } },
  {
    name: "health at_risk,off_track, sort target",
    query: { health: ["at_risk", "off_track"], sort: "target", limit: 50 },
  },
  { name: "limit 200", query: { limit: 200 } },
];

/** EXPLAIN (ANALYZE, BUFFERS) of the project list's statement shapes and of the initiative list. */
export async function explainPlanning(em: EntityManager, seeded: PlanningSeeded): Promise<string> {
  const scope = adminScope(em, {
    workspaceId: seeded.workspaceId,
    workspaceSlug: seeded.workspaceSlug,
    adminId: seeded.adminId,
  } as never);
  const lines = [
    "# listProjects query plans",
    "",
    `Generated by \`npm run bench\` (${new Date().toISOString()}) on ${seeded.counts.planningProjects} projects ` +
      `and ${seeded.counts.planningIssues} issues; EXPLAIN (ANALYZE, BUFFERS), median of three runs. Progress ` +
      "and health are computed for every project of the workspace in the statement (filters and sorts use them).",
    "",
  ];
  const sections: string[] = [];
  const table: string[] = ["| shape | execution ms |", "|---|---:|"];
  for (const shape of PROJECT_SHAPES) {
    const query = await projectListQuery(scope, shape.query);
    const median = await explainMedian(em, { text: query.sql, params: query.params });
    table.push(`| ${shape.name} | ${median.ms.toFixed(2)} |`);
    sections.push(
      `## ${shape.name}`,
      "",
      `\`${JSON.stringify(shape.query)}\``,
      "",
      "```",
      median.plan,
      "```",
      "",
    );
  }
  // The initiative list runs the same per-project computation under its own aggregate.
  const t0 = performance.now();
  await queryInitiatives(scope, { limit: 50 });
  table.push(`| listInitiatives (wall time incl. projects query) | ${(performance.now() - t0).toFixed(2)} |`);
  return [...lines, ...table, "", ...sections].join("\n");
}
