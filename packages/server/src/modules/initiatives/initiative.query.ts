import type { EntityManager } from "@mikro-orm/postgresql";
import { type components, initiativeStatusValues } from "@tracker/sdk/schema";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import { dateSql } from "../../db/sql-time.js";
import { AUTH_EPOCH_SQL, confirmCaller } from "../../http/auth.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { UNCOUNTED_PROJECT_STATUSES_SQL } from "../../rules/state-types.js";
import { visibleInitiativeCondition, visibleProjectCondition } from "../../rules/visibility.js";
import * as planning from "../planning/planning-list.js";
import { healthSql, percentSql } from "../planning/progress.js";
import { projectMetricsSql } from "../projects/project.query.js";
import { isUuid, rowOr404 } from "../shared/resolve.query.js";

type Schemas = components["schemas"];
export type InitiativeOut = Schemas["Initiative"];
type InitiativeStatus = Schemas["InitiativeStatus"];
type Health = Schemas["Health"];

export type InitiativeQuery = planning.PlanningQuery<
  InitiativeStatus,
  Schemas["InitiativeSpecialFilter"],
  Schemas["InitiativeSort"]
>;

interface InitiativeRow {
  /** On the page's last row: its sort keys, for `nextCursor`. */
  sort_keys: string | null;
  auth_epoch: string;
  id: string;
  name: string;
  description: string | null;
  status: InitiativeStatus;
  lead_id: string | null;
  lead_name: string | null;
  lead_email: string | null;
  target_date: string | null;
  done: number;
  total: number;
  percent: number;
  excluded: number;
  health: Health;
  /** [id, name, status, done, total, percent] per visible project, in list order. */
  projects: [string, string, InitiativeOut["projects"][number]["status"], number, number, number][];
}

const SORTS: Record<Exclude<Schemas["InitiativeSort"], `-${string}`>, string> = {
  ...planning.sharedSorts(initiativeStatusValues),
  projects: "h.project_count",
};

const SORT_TYPES: planning.SortTypes<keyof typeof SORTS> = {
  ...planning.SHARED_SORT_TYPES,
  projects: { type: "int", notNull: true },
};

const COUNTED = `pr.status not in ${UNCOUNTED_PROJECT_STATUSES_SQL}`;

function initiativeSpecials(
  scope: WorkspaceScope,
): Record<Schemas["InitiativeSpecialFilter"], planning.Term> {
  return {
    ...planning.sharedSpecials(scope, { active: "active", updates: "initiative_id" }),
    due_quarter: planning.dueThis("quarter"),
    // No change to it or its projects, then none to their issues.
    stale: `${planning.OPEN} and h.last_change < now() - interval '14 days'
                    and not exists (select 1 from projects sp join issues si on si.project_id = sp.id
                                     where sp.initiative_id = h.id and si.updated_at >= now() - interval '14 days')`,
    no_projects: "h.project_count = 0",
    no_counted_work: "h.counted_issues = 0",
    has_excluded: "h.excluded > 0",
  };
}

/**
 * One page of initiatives with progress (summed over counted projects), excluded-project counts, health
 * and their visible projects with each one's progress, all computed in one statement.
 */
export async function queryInitiatives(
  scope: WorkspaceScope,
  q: InitiativeQuery,
): Promise<{ initiatives: InitiativeOut[]; nextOffset: number | null; nextCursor: string | null }> {
  const vis = visibleInitiativeCondition(scope, "h");
  // The projects listed with each initiative are only those the caller may see.
  const projectVis = visibleProjectCondition(scope, "pr");
  const conditions = new planning.PlanningConditions(vis.sql, [
    scope.workspace.id,
    ...projectVis.params,
    scope.workspace.id,
    ...vis.params,
  ]);
  if (q.ids) conditions.add({ sql: "h.id = any(?::uuid[])", params: [q.ids] });
  conditions.anyOf("h.status", "text", q.status);
  conditions.lead(scope, q.lead);
  conditions.anyOf("h.health", "text", q.health);
  conditions.specials(q.special, initiativeSpecials(scope));
  const cursor = planning.planningCursor("initiatives", SORTS, SORT_TYPES, q, "-updated");
  const after = planning.afterCursor(cursor);
  if (after) conditions.add(after);
  const order = planning.orderBy(SORTS, q.sort ?? "-updated").sql;
  const offset = q.offset ?? 0;
  const page = conditions.page(q.limit, offset);

  const start = "coalesce(m.start_date, (m.created_at at time zone 'utc')::date)";
  const rows = await sql<InitiativeRow>(
    scope.em,
    {
      sql: `with pr as (${projectMetricsSql()}),
     agg as (
       select i.*,
              coalesce(sum(pr.done) filter (where ${COUNTED}), 0)::int as done,
              coalesce(sum(pr.total) filter (where ${COUNTED}), 0)::int as total,
              coalesce(sum(pr.issue_count) filter (where ${COUNTED}), 0)::int as counted_issues,
              (count(pr.id) filter (where pr.status in ${UNCOUNTED_PROJECT_STATUSES_SQL}))::int as excluded,
              count(pr.id)::int as project_count,
              greatest(i.updated_at, max(pr.updated_at)) as last_change,
              -- Arrays, shaped into objects in JavaScript: json_build_object per project cost twice as much.
              coalesce(json_agg(json_build_array(pr.id, pr.name, pr.status, pr.done, pr.total, pr.percent)
                order by lower(pr.name), pr.id) filter (where pr.id is not null and ${projectVis.sql}), '[]') as projects
         from initiatives i left join pr on pr.initiative_id = i.id
        where i.workspace_id = ?
        group by i.id
     ),
     h as (
       select m.*, ${healthSql({ done: "m.done", total: "m.total", percent: "m.percent", start, target: "m.target_date" })} as health
         from (select agg.*, ${percentSql("agg.done", "agg.total")} as percent from agg) m
     )
     select h.id, h.name, h.description, h.status, h.lead_id, lu.name as lead_name, lu.email as lead_email,
            ${dateSql("h.target_date")} as target_date, h.done, h.total, h.percent, h.excluded, h.health,
            h.projects, ${AUTH_EPOCH_SQL} as auth_epoch, ${cursor.sortKeysSql} as sort_keys
       from h left join users lu on lu.id = h.lead_id
      where ${conditions.where.join(" and ")}
      order by ${order}${page}`,
      params: conditions.params,
    },
    { prepare: true },
  );
  confirmCaller(scope, rows[0]?.auth_epoch);
  const { rows: pageRows, nextOffset, nextCursor } = planning.pageOf(rows, q.limit, offset, cursor);
  return {
    initiatives: pageRows.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      status: r.status,
      health: r.health,
      lead: r.lead_id ? { id: r.lead_id, name: r.lead_name!, email: r.lead_email! } : null,
      targetDate: r.target_date,
      projects: r.projects.map(([id, name, status, done, total, percent]) => ({
        id,
        name,
        status,
        progress: { done, total, percent, excludedProjects: 0 },
      })),
      progress: { done: r.done, total: r.total, percent: r.percent, excludedProjects: r.excluded },
    })),
    nextOffset,
    nextCursor,
  };
}

// ---- One initiative ------------------------------------------------------------------------------

/** An initiative the caller may see, by id or name (case-insensitive); anything else is 404. */
export function findInitiative(scope: WorkspaceScope, ref: string, em: EntityManager = scope.em) {
  return rowOr404<{ id: string; name: string; lead_id: string | null }>(
    em,
    q`select i.id, i.name, i.lead_id from initiatives i
      where i.workspace_id = ${scope.workspace.id} and ${isUuid(ref) ? q`i.id = ${ref}` : q`lower(i.name) = lower(${ref})`}
        and ${visibleInitiativeCondition(scope, "i")}`,
    `No initiative "${ref}" in this workspace.`,
  );
}

/** What moving an initiative copies of it. */
export interface InitiativeToMove {
  id: string;
  name: string;
  description: string | null;
  status: string;
  lead_id: string | null;
  start_date: string | null;
  target_date: string | null;
}

/** The initiative, locked, while it is still in the workspace. */
export function lockInitiative(em: EntityManager, id: string, workspaceId: string) {
  return sqlOne<InitiativeToMove>(
    em,
    q`select id, name, description, status, lead_id, ${raw(dateSql("start_date"))} as start_date,
            ${raw(dateSql("target_date"))} as target_date
       from initiatives where id = ${id} and workspace_id = ${workspaceId} for update`,
  );
}

/** A copy of the initiative in another workspace, led by its lead when they are a member there. */
export async function copyInitiative(
  em: EntityManager,
  original: InitiativeToMove,
  newId: string,
  workspaceId: string,
): Promise<void> {
  await sql(
    em,
    q`insert into initiatives (id, workspace_id, name, description, status, lead_id, start_date, target_date,
                              created_at, updated_at)
     values (${newId}, ${workspaceId}, ${original.name}, ${original.description}, ${original.status},
             (select m.user_id from memberships m where m.workspace_id = ${workspaceId} and m.user_id = ${original.lead_id}),
             ${original.start_date}, ${original.target_date}, now(), now())`,
  );
}

/** The initiative's projects, locked, by name. */
export function lockProjectsOf(em: EntityManager, initiativeId: string) {
  return sql<{ id: string }>(
    em,
    q`select id from projects where initiative_id = ${initiativeId} order by lower(name), id for update`,
  );
}

export async function setProjectsInitiative(
  em: EntityManager,
  projects: { id: string }[],
  initiativeId: string,
): Promise<void> {
  if (!projects.length) return;
  await sql(
    em,
    q`update projects set initiative_id = ${initiativeId} where id = any(${projects.map((p) => p.id)}::uuid[])`,
  );
}

export async function cancelInitiative(em: EntityManager, id: string): Promise<void> {
  await sql(em, q`update initiatives set status = 'canceled', updated_at = now() where id = ${id}`);
}
