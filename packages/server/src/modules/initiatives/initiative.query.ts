import type { components } from "@tracker/sdk/schema";
import { sql } from "../../db/sql.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { dateText, HEALTH_RANK, healthSql, orderTerm, percentSql, TODAY } from "../projects/progress.js";
import { projectMetricsSql, visibleProjectCondition } from "../projects/project.query.js";
import { isUuid } from "../shared/resolve.js";
import { INITIATIVE_STATUSES } from "./initiative.entity.js";

type Schemas = components["schemas"];
export type InitiativeOut = Schemas["Initiative"];
type InitiativeStatus = Schemas["InitiativeStatus"];
type Health = Schemas["Health"];

export interface InitiativeQuery {
  ids?: string[];
  status?: InitiativeStatus[];
  lead?: string[];
  health?: Health[];
  special?: Schemas["InitiativeSpecialFilter"][];
  sort?: Schemas["InitiativeSort"];
  limit?: number;
  offset?: number;
}

/**
 * SQL condition (on an initiatives alias) for what the caller may see: members and admins see every
 * initiative of the workspace; guests those holding at least one project they may see.
 */
export function visibleInitiativeCondition(
  scope: WorkspaceScope,
  alias = "i",
): { sql: string; params: unknown[] } {
  if (scope.workspace.role !== "guest") return { sql: "true", params: [] };
  const vis = visibleProjectCondition(scope, "vp");
  return {
    sql: `exists (select 1 from projects vp where vp.initiative_id = ${alias}.id and ${vis.sql})`,
    params: vis.params,
  };
}

interface InitiativeRow {
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

const SORTS: Record<string, string> = {
  name: "lower(h.name)",
  target: "h.target_date",
  health: HEALTH_RANK("h.health"),
  status: `array_position(array[${INITIATIVE_STATUSES.map((s) => `'${s}'`).join(", ")}]::text[], h.status::text)`,
  updated: "h.updated_at",
  progress: "h.percent",
  projects: "h.project_count",
};

const COUNTED = "pr.status not in ('paused', 'canceled')";

/**
 * One page of initiatives with progress (summed over counted projects), excluded-project counts, health
 * and their visible projects with each one's progress, all computed in one statement.
 */
export async function queryInitiatives(
  scope: WorkspaceScope,
  q: InitiativeQuery,
): Promise<{ initiatives: InitiativeOut[]; nextOffset: number | null }> {
  const vis = visibleInitiativeCondition(scope, "h");
  // The projects listed with each initiative are only those the caller may see.
  const projectVis = visibleProjectCondition(scope, "pr");
  const where: string[] = [vis.sql];
  const params: unknown[] = [scope.workspace.id, ...projectVis.params, scope.workspace.id, ...vis.params];

  if (q.ids) {
    where.push("h.id = any(?::uuid[])");
    params.push(q.ids);
  }
  if (q.status?.length) {
    where.push("h.status = any(?::text[])");
    params.push(q.status);
  }
  if (q.lead?.length) {
    const refs = q.lead.filter((l) => l !== "none").map((l) => (l === "me" ? scope.caller.userId : l));
    const ids = refs.filter(isUuid);
    const emails = refs.filter((r) => !isUuid(r)).map((r) => r.toLowerCase());
    const alts: string[] = [];
    if (q.lead.includes("none")) alts.push("h.lead_id is null");
    if (ids.length) {
      alts.push("h.lead_id = any(?::uuid[])");
      params.push(ids);
    }
    if (emails.length) {
      alts.push("lu.email = any(?::text[])");
      params.push(emails);
    }
    where.push(`(${alts.join(" or ")})`);
  }
  if (q.health?.length) {
    where.push("h.health = any(?::text[])");
    params.push(q.health);
  }
  const open = "h.status not in ('completed', 'canceled')";
  for (const special of new Set(q.special ?? [])) {
    switch (special) {
      case "overdue":
        where.push(`${open} and h.target_date < ${TODAY}`);
        break;
      case "due_quarter":
        where.push(`${open} and date_trunc('quarter', h.target_date) = date_trunc('quarter', ${TODAY})`);
        break;
      case "no_target_date":
        where.push("h.target_date is null");
        break;
      case "stale":
        // No change to it or its projects, then none to their issues.
        where.push(`${open} and h.last_change < now() - interval '14 days'
                    and not exists (select 1 from projects sp join issues si on si.project_id = sp.id
                                     where sp.initiative_id = h.id and si.updated_at >= now() - interval '14 days')`);
        break;
      case "no_lead":
        where.push("h.lead_id is null");
        break;
      case "no_projects":
        where.push("h.project_count = 0");
        break;
      case "no_counted_work":
        where.push("h.counted_issues = 0");
        break;
      case "update_overdue":
        // Never updated: counted from the initiative's creation, so a new one is not overdue at once.
        where.push(`h.status = 'active' and coalesce(
                      (select max(su.created_at) from status_updates su where su.initiative_id = h.id),
                      h.created_at) < now() - interval '7 days'`);
        break;
      case "off_track":
        where.push("h.health = 'off_track'");
        break;
      case "has_excluded":
        where.push("h.excluded > 0");
        break;
      case "led_by_me":
        where.push("h.lead_id = ?");
        params.push(scope.caller.userId);
        break;
    }
  }

  const sort = q.sort ?? "-updated";
  const descending = sort.startsWith("-");
  const order = [
    orderTerm(SORTS[descending ? sort.slice(1) : sort]!, descending),
    "lower(h.name) asc",
    "h.id asc",
  ];
  let page = "";
  const offset = q.offset ?? 0;
  if (q.limit !== undefined) {
    page = " limit ? offset ?";
    params.push(q.limit + 1, offset);
  }

  const start = "coalesce(m.start_date, (m.created_at at time zone 'utc')::date)";
  const rows = await sql<InitiativeRow>(
    scope.em,
    `with pr as (${projectMetricsSql()}),
     agg as (
       select i.*,
              coalesce(sum(pr.done) filter (where ${COUNTED}), 0)::int as done,
              coalesce(sum(pr.total) filter (where ${COUNTED}), 0)::int as total,
              coalesce(sum(pr.issue_count) filter (where ${COUNTED}), 0)::int as counted_issues,
              (count(pr.id) filter (where pr.status in ('paused', 'canceled')))::int as excluded,
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
            ${dateText("h.target_date")} as target_date, h.done, h.total, h.percent, h.excluded, h.health,
            h.projects
       from h left join users lu on lu.id = h.lead_id
      where ${where.join(" and ")}
      order by ${order.join(", ")}${page}`,
    params,
    { prepare: true },
  );
  const more = q.limit !== undefined && rows.length > q.limit;
  const pageRows = more ? rows.slice(0, q.limit) : rows;

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
    nextOffset: more ? offset + q.limit! : null,
  };
}
