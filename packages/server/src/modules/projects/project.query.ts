import { type components, projectStatusValues } from "@tracker/sdk/schema";
import { genericPlanWhenOnly, sql, sqlOne } from "../../db/sql.js";
import { q, raw, type SqlFragment } from "../../db/sql-fragment.js";
import { dateFromJson, dateSql, isoFromJson, jsonTimeSql } from "../../db/sql-time.js";
import { AUTH_EPOCH_SQL, confirmCaller } from "../../http/auth.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";
import { UNCOUNTED_PROJECT_STATUSES_SQL } from "../../rules/state-types.js";
import {
  visibleProjectCondition,
  visibleTeamCondition,
  visibleTeamIdCondition,
} from "../../rules/visibility.js";
import * as planning from "../planning/planning-list.js";
import { healthSql, percentSql } from "../planning/progress.js";
import { isUuid, resolveInitiative, resolveProject, rowOr404 } from "../shared/resolve.query.js";
import { namesAt, type WorkspaceNames } from "../shared/workspace-names.js";

type Schemas = components["schemas"];
export type ProjectOut = Schemas["Project"];
export type ProjectStatus = Schemas["ProjectStatus"];
export type Health = Schemas["Health"];
export type ProjectSpecial = Schemas["ProjectSpecialFilter"];
export type ProjectSort = Schemas["ProjectSort"];

/** SQL array (on a projects alias) of the project's team ids the caller may see. */
function visibleTeamIdsSql(scope: WorkspaceScope, alias: string): { sql: string; params: unknown[] } {
  const vis = visibleTeamIdCondition(scope, "x");
  return { sql: `array(select x from unnest(${alias}.team_ids) x where ${vis.sql})`, params: vis.params };
}

/**
 * Projects with their progress counts, percent and health, as a CTE body. The counts come from
 * `project_issue_counts` (one primary-key read per project; triggers keep it exact), so a computed sort or
 * filter costs one row per project, not one count over its issues. Callers filter, sort and page the result
 * in the same statement. `from` names the rows: by default every project of the workspace (one `?`
 * parameter). Columns: every projects column plus done, total, issue_count, percent, health.
 */
export function projectMetricsSql(
  rows: { from: string; where?: string } = { from: "projects p", where: "p.workspace_id = ?" },
): string {
  const start = "coalesce(m.start_date, (m.created_at at time zone 'utc')::date)";
  return `
    select m.*, ${healthSql({ done: "m.done", total: "m.total", percent: "m.percent", start, target: "m.target_date" })} as health
      from (
        select p.*, coalesce(st.done, 0) as done, coalesce(st.total, 0) as total,
               coalesce(st.issue_count, 0) as issue_count,
               ${percentSql("coalesce(st.done, 0)", "coalesce(st.total, 0)")} as percent
          from ${rows.from}
          left join project_issue_counts st on st.project_id = p.id
         ${rows.where ? `where ${rows.where}` : ""}
      ) m`;
}

export interface ProjectQuery extends planning.PlanningQuery<ProjectStatus, ProjectSpecial, ProjectSort> {
  /** Only projects of these initiatives (the initiative list's project arrays). */
  initiativeIds?: string[];
  initiative?: string;
  team?: string[];
}

interface ProjectRow {
  id: string;
  name: string;
  description: string | null;
  status: ProjectStatus;
  initiative_id: string | null;
  initiative_name: string | null;
  lead_id: string | null;
  lead_name: string | null;
  start_date: string | null;
  target_date: string | null;
  created_at: string;
  updated_at: string;
  /** The ids of the project's teams the caller sees, comma-separated. */
  team_ids: string;
  /** The workspace's names version in the statement's snapshot (the same on every row). */
  names_version: string;
  auth_epoch: string;
  done: number;
  total: number;
  percent: number;
  health: Health;
  /** On the page's last row: its sort keys, for `nextCursor`. */
  sort_keys: string | null;
}

/** What the page reads of `h`: naming them (not `h.*`) lets the planner skip the aggregates nobody reads. */
const PAGE_COLUMNS = `h.id, h.name, h.description, h.status, h.initiative_id, h.lead_id, h.start_date, h.target_date,
  h.created_at, h.updated_at, h.team_ids, h.done, h.total, h.percent, h.health`;

const SORTS: Record<ProjectSortKey, string> = {
  ...planning.sharedSorts(projectStatusValues),
  scope: "h.total",
  lead: "lower(lu.name)",
};
type ProjectSortKey = Exclude<ProjectSort, `-${string}`>;
const SORT_TYPES: planning.SortTypes<ProjectSortKey> = {
  ...planning.SHARED_SORT_TYPES,
  scope: { type: "int", notNull: true },
  lead: { type: "text" },
};

/** Sorts and special filters that read a computed column (progress, health, issue counts). */
const COMPUTED_SORTS: ReadonlySet<string> = new Set(["health", "progress", "scope"]);
const COMPUTED_SPECIALS: ReadonlySet<string> = new Set(["stale", "no_issues", "off_track"]);

function projectSpecials(scope: WorkspaceScope): Record<ProjectSpecial, planning.Term> {
  return {
    ...planning.sharedSpecials(scope, { active: "started", updates: "project_id" }),
    due_month: planning.dueThis("month"),
    // No project change, then no issue change (an index-only probe of the project's issues).
    stale: `${planning.OPEN} and h.updated_at < now() - interval '14 days'
                    and not exists (select 1 from issues si where si.project_id = h.id
                                       and si.updated_at >= now() - interval '14 days')`,
    no_initiative: "h.initiative_id is null",
    no_issues: "h.issue_count = 0",
    uncounted: `h.status in ${UNCOUNTED_PROJECT_STATUSES_SQL}`,
  };
}

/** Compiles every filter, special filter and sort to one SQL statement (fetching one row past the page). */
export async function projectListQuery(
  scope: WorkspaceScope,
  q: ProjectQuery,
): Promise<SqlFragment & { cursor: planning.PlanningCursor }> {
  const vis = visibleProjectCondition(scope, "h");
  const conditions = new planning.PlanningConditions(vis.sql, [scope.workspace.id, ...vis.params]);
  const { where, params } = conditions;

  if (q.ids) conditions.add({ sql: "h.id = any(?::uuid[])", params: [q.ids] });
  if (q.initiativeIds) conditions.add({ sql: "h.initiative_id = any(?::uuid[])", params: [q.initiativeIds] });
  if (q.initiative !== undefined) {
    const initiative = await resolveInitiative(scope, q.initiative);
    conditions.add({ sql: "h.initiative_id = ?", params: [initiative.id] });
  }
  conditions.anyOf("h.status", "text", q.status);
  conditions.lead(scope, q.lead);
  if (q.team?.length) {
    // Overlap with the row's team_ids: the same plan whichever teams are named (no join per value).
    conditions.add({
      sql: `h.team_ids && array(select ftt.id from teams ftt where ftt.workspace_id = ?
                                       and (ftt.id::text = any(?::text[]) or ftt.key = any(?::text[])))`,
      params: [scope.workspace.id, q.team, q.team],
    });
  }
  conditions.anyOf("h.health", "text", q.health);
  conditions.specials(q.special, projectSpecials(scope));
  const cursor = planning.planningCursor("projects", SORTS, SORT_TYPES, q, "-updated");
  const after = planning.afterCursor(cursor);
  if (after) conditions.add(after);

  const { key: sortKey, sql: order } = planning.orderBy(SORTS, q.sort ?? "-updated");
  /** Whether a filter or the sort reads a computed column (else only the page's metrics are computed). */
  const computed =
    !!q.health?.length || COMPUTED_SORTS.has(sortKey) || !!q.special?.some((s) => COMPUTED_SPECIALS.has(s));
  const page = conditions.page(q.limit, q.offset ?? 0);

  // The page's visible team ids come with each row and their names from the server's cache, checked
  // against the workspace's names version read in this statement's snapshot.
  const teamIds = visibleTeamIdsSql(scope, "h");
  params.push(...teamIds.params, scope.workspace.id);
  const columns = `h.id, h.name, h.description, h.status, h.initiative_id, ini.name as initiative_name,
            h.lead_id, lu.name as lead_name, ${jsonTimeSql("h.start_date", false)} as start_date,
            ${jsonTimeSql("h.target_date", false)} as target_date, ${jsonTimeSql("h.created_at")} as created_at,
            ${jsonTimeSql("h.updated_at")} as updated_at, h.done, h.total, h.percent, h.health,
            array_to_string(${teamIds.sql}, ',') as team_ids,
            (select w.names_version::text from workspaces w where w.id = ?) as names_version,
            ${AUTH_EPOCH_SQL} as auth_epoch, ${cursor.sortKeysSql} as sort_keys`;
  if (computed) {
    // Progress and health of every visible project (the filter or sort reads them), then the page, and only
    // then the page's initiative and lead names. The inner join to users is removed by the planner unless
    // the lead sort or a lead email filter reads it.
    return {
      sql: `with h as (${projectMetricsSql()}),
       pg as (
         select ${PAGE_COLUMNS} from h left join users lu on lu.id = h.lead_id
          where ${where.join(" and ")}
          order by ${order}${page}
       )
       select ${columns}
         from pg h
         left join initiatives ini on ini.id = h.initiative_id
         left join users lu on lu.id = h.lead_id
        order by ${order}`,
      params,
      cursor,
    };
  }
  // Nothing reads a computed value before paging: page the plain rows first, then compute progress and
  // health for that page only (the same expressions, on 51 rows instead of the whole workspace).
  return {
    sql: `with pg as (
       select h.* from projects h left join users lu on lu.id = h.lead_id
        where h.workspace_id = ? and ${where.join(" and ")}
        order by ${order}${page}
     ), h as (${projectMetricsSql({ from: "pg p" })})
     select ${columns}
       from h
       left join initiatives ini on ini.id = h.initiative_id
       left join users lu on lu.id = h.lead_id
      order by ${order}`,
    params,
    cursor,
  };
}

/**
 * Keys whose values do not change the best plan: a list filtered by nothing else runs on a generic plan.
 * Status, health and teams are tests on each of the workspace's projects, which every such plan reads in
 * full or in sort order anyway; a lead or an initiative can select a few projects through an index, so those
 * lists are planned for their values.
 */
const PLAN_FREE_KEYS: ReadonlySet<string> = new Set([
  "special",
  "sort",
  "status",
  "health",
  "team",
  "limit",
  "offset",
  "cursor",
]);

/** One page of projects with their progress, health and visible teams, in one statement. */
export async function queryProjects(
  scope: WorkspaceScope,
  q: ProjectQuery,
): Promise<{ projects: ProjectOut[]; nextOffset: number | null; nextCursor: string | null }> {
  const query = await projectListQuery(scope, q);
  const rows = await sql<ProjectRow>(scope.em, query, {
    prepare: genericPlanWhenOnly(q, PLAN_FREE_KEYS),
  });
  confirmCaller(scope, rows[0]?.auth_epoch);
  const {
    rows: pageRows,
    nextOffset,
    nextCursor,
  } = planning.pageOf(rows, q.limit, q.offset ?? 0, query.cursor);
  const teams = await pageTeams(scope, pageRows);
  return {
    projects: pageRows.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      status: r.status,
      initiative: r.initiative_id ? { id: r.initiative_id, name: r.initiative_name! } : null,
      lead: r.lead_id ? { id: r.lead_id, name: r.lead_name! } : null,
      teams: teams.get(r.id) ?? [],
      startDate: dateFromJson(r.start_date),
      targetDate: dateFromJson(r.target_date),
      createdAt: isoFromJson(r.created_at)!,
      updatedAt: isoFromJson(r.updated_at)!,
      progress: { done: r.done, total: r.total, percent: r.percent, excludedProjects: 0 },
      health: r.health,
    })),
    nextOffset,
    nextCursor,
  };
}

type ProjectTeams = Map<string, { id: string; key: string; name: string }[]>;

/**
 * The visible teams of a page of projects, ordered by key: names from the server's cache at the version the
 * list statement saw, or, when the cache cannot answer at that version (names changed again meanwhile),
 * read for the page in one more statement.
 */
async function pageTeams(scope: WorkspaceScope, rows: ProjectRow[]): Promise<ProjectTeams> {
  if (rows.length === 0) return new Map();
  const names = await namesAt(scope.em, scope.workspace.id, rows[0]!.names_version);
  return (
    (names && teamsFromNames(rows, names.teams)) ??
    teamsOf(
      scope,
      rows.map((r) => r.id),
    )
  );
}

/** The page's teams named from the cache; undefined when it does not know one of them. */
function teamsFromNames(rows: ProjectRow[], teams: WorkspaceNames["teams"]): ProjectTeams | undefined {
  const out: ProjectTeams = new Map();
  for (const r of rows) {
    if (!r.team_ids) continue;
    const list: { id: string; key: string; name: string }[] = [];
    for (const id of r.team_ids.split(",")) {
      const team = teams[id];
      if (!team) return undefined;
      list.push({ id, key: team[0], name: team[1] });
    }
    // Keys are upper-case letters and digits: code-point order is the database's order.
    list.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    out.set(r.id, list);
  }
  return out;
}

/** The visible teams of a page of projects, read in one query. */
async function teamsOf(scope: WorkspaceScope, projectIds: string[]): Promise<ProjectTeams> {
  const out: ProjectTeams = new Map();
  const vis = visibleTeamCondition(scope, "t");
  const rows = await sql<{ project_id: string; id: string; key: string; name: string }>(
    scope.em,
    q`select pt.project_id, t.id, t.key, t.name
       from project_teams pt join teams t on t.id = pt.team_id
      where pt.project_id = any(${projectIds}::uuid[]) and ${vis}
      order by t.key`,
    { prepare: true },
  );
  for (const r of rows) {
    const list = out.get(r.project_id) ?? [];
    list.push({ id: r.id, key: r.key, name: r.name });
    out.set(r.project_id, list);
  }
  return out;
}

/** `GET /projects/{id}`: a project the caller may see, by id or name, as the list shows it. */
export async function getProject(scope: WorkspaceScope, ref: string): Promise<ProjectOut> {
  const { id } = await resolveProject(scope, ref);
  const { projects } = await queryProjects(scope, { ids: [id] });
  if (!projects[0]) throw new NotFound(`No project "${ref}" in this workspace.`);
  return projects[0];
}

/** One project as the list shows it (for create and update answers). */
export async function projectById(scope: WorkspaceScope, id: string): Promise<ProjectOut> {
  const { projects } = await queryProjects(scope, { ids: [id] });
  // Gone since it was resolved: moved to another workspace by a concurrent request.
  if (!projects[0]) throw new NotFound(`No project "${id}" in this workspace.`);
  return projects[0];
}

// ---- One project ------------------------------------------------------------------------------

export interface ProjectRecord {
  id: string;
  name: string;
  status: string;
  lead_id: string | null;
  start_date: string | null;
  target_date: string | null;
  /** True when one of its teams is a personal space. */
  personal: boolean;
}

/** A project the caller may see, by id or name (case-insensitive); anything else is 404. */
export async function findProject(scope: WorkspaceScope, ref: string, em = scope.em): Promise<ProjectRecord> {
  const vis = visibleProjectCondition(scope, "p");
  return rowOr404<ProjectRecord>(
    em,
    q`select p.id, p.name, p.status, p.lead_id, ${raw(dateSql("p.start_date"))} as start_date,
            ${raw(dateSql("p.target_date"))} as target_date,
            exists (select 1 from project_teams xpt join teams xt on xt.id = xpt.team_id
                     where xpt.project_id = p.id and xt.personal) as personal
       from projects p
      where p.workspace_id = ${scope.workspace.id} and ${isUuid(ref) ? q`p.id = ${ref}` : q`lower(p.name) = lower(${ref})`} and ${vis}`,
    `No project "${ref}" in this workspace.`,
  );
}

export async function projectPageData(scope: WorkspaceScope, ref: string) {
  const project = await findProject(scope, ref);
  const row = await sqlOne<{ description: string | null }>(
    scope.em,
    q`select description from projects where id = ${project.id}`,
  );
  return { project: { id: project.id, description: row?.description ?? null } };
}

// ---- Members ------------------------------------------------------------------------------------

export async function listProjectMembers(scope: WorkspaceScope, ref: string) {
  const project = await findProject(scope, ref);
  return sql<{ id: string; name: string; email: string }>(
    scope.em,
    q`select u.id, u.name, u.email
       from project_members pm join users u on u.id = pm.user_id
      where pm.project_id = ${project.id}
      order by lower(u.name), u.id`,
  );
}

/** Whether the caller belongs to one of the project's teams (`project.manageMembers`). */
export async function callerInTeams(scope: WorkspaceScope, project: ProjectRecord): Promise<boolean> {
  const inTeam = await sqlOne(
    scope.em,
    q`select 1 from project_teams pt join team_members tm on tm.team_id = pt.team_id
      where pt.project_id = ${project.id} and tm.user_id = ${scope.caller.userId}`,
  );
  return inTeam !== undefined;
}
