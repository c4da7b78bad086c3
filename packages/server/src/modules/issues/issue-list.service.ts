import { genericPlanWhenOnly, sql } from "../../db/sql.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { type IssueOut, type IssueRow, isoSql } from "./issue.serialize.js";
import { compileIssueFilter, type IssueFilter, issuePage } from "./issue-filter.js";

export interface IssuePage {
  issues: IssueOut[];
  nextOffset: number | null;
}

type Priority = IssueOut["priority"];
type StateType = IssueOut["state"]["type"];

/** A row of the list statement: the issue's own columns, and on the first row the page's references. */
type ListRow = Pick<
  IssueRow,
  | "id"
  | "number"
  | "title"
  | "description"
  | "priority"
  | "estimate"
  | "dueDate"
  | "parentId"
  | "createdAt"
  | "updatedAt"
  | "completedAt"
> & {
  teamId: string;
  stateId: string;
  assigneeId: string | null;
  projectId: string | null;
  cycleId: string | null;
  refs: PageRefs | null;
};

/** Everything the page's issues refer to, once each, keyed by id (labels: by issue id). */
interface PageRefs {
  teams: Record<string, [key: string, name: string]> | null;
  states: Record<string, [name: string, type: StateType]> | null;
  users: Record<string, [name: string, email: string]> | null;
  projects: Record<string, string> | null;
  cycles: Record<string, number> | null;
  labels: Record<string, string[]> | null;
}

/**
 * The one statement of a list page. The inner select filters, sorts and pages over `issues` alone (plus the
 * join a state or assignee sort needs), so an index on the sort key can stop after the page. The page's
 * rows then carry their own columns, and the first row one JSON object of everything the page refers to:
 * its teams, states, assignees, projects, cycles and each issue's sorted label names, each read once for
 * the page instead of once per row (half the statement's time). One row more than the page is fetched to
 * know whether another page follows. Exported for the bench.
 */
export async function issueListQuery(scope: WorkspaceScope, filter: IssueFilter) {
  const { limit, offset } = issuePage(filter);
  const compiled = await compileIssueFilter(scope, filter);
  return {
    text: `with page as materialized (
         select i.id, i.number, i.title, i.description, i.priority, i.estimate, i.due_date, i.team_id, i.state_id,
                i.assignee_id, i.project_id, i.cycle_id, i.parent_id, i.created_at, i.updated_at, i.completed_at,
                p.ord
           from issues i
           join unnest(array(
                  select i.id from issues i ${compiled.joins}
                   where ${compiled.where}
                   order by ${compiled.orderBy}
                   limit ? offset ?
                )) with ordinality as p(id, ord) on p.id = i.id),
       refs as (
         select json_build_object(
           'teams', (select json_object_agg(x.id, json_build_array(x.key, x.name))
                       from teams x where x.id in (select team_id from page)),
           'states', (select json_object_agg(x.id, json_build_array(x.name, x.type))
                        from workflow_states x where x.id in (select state_id from page)),
           'users', (select json_object_agg(x.id, json_build_array(x.name, x.email))
                       from users x where x.id in (select assignee_id from page)),
           'projects', (select json_object_agg(x.id, x.name) from projects x where x.id in (select project_id from page)),
           'cycles', (select json_object_agg(x.id, x.number) from cycles x where x.id in (select cycle_id from page)),
           'labels', (select json_object_agg(l.issue_id, l.names)
                        from (select sil.issue_id, array_agg(sl.name order by lower(sl.name), sl.name) as names
                                from issue_labels sil join labels sl on sl.id = sil.label_id
                               where sil.issue_id in (select id from page)
                               group by sil.issue_id) l)) as refs)
     select page.id, page.number, page.title, page.description, page.priority, page.estimate,
            to_char(page.due_date, 'YYYY-MM-DD') as "dueDate", page.team_id as "teamId", page.state_id as "stateId",
            page.assignee_id as "assigneeId", page.project_id as "projectId", page.cycle_id as "cycleId",
            page.parent_id as "parentId", ${isoSql("page.created_at")} as "createdAt",
            ${isoSql("page.updated_at")} as "updatedAt", ${isoSql("page.completed_at")} as "completedAt",
            case when page.ord = 1 then (select refs from refs) end as refs
       from page
      order by page.ord`,
    params: [...compiled.params, limit + 1, offset],
    limit,
    offset,
    check: compiled.check,
  };
}

/** Shapes the list rows as the contract's `Issue`, resolving references from the page's `refs`. */
function issuesFromRows(rows: ListRow[]): IssueOut[] {
  const refs = rows[0]?.refs;
  const teams = refs?.teams ?? {};
  const states = refs?.states ?? {};
  const users = refs?.users ?? {};
  const projects = refs?.projects ?? {};
  const cycles = refs?.cycles ?? {};
  const labels = refs?.labels ?? {};
  return rows.map((r) => {
    const [key, teamName] = teams[r.teamId]!;
    const [stateName, stateType] = states[r.stateId]!;
    const assignee = r.assigneeId ? users[r.assigneeId] : undefined;
    return {
      id: r.id,
      identifier: `${key}-${r.number}`,
      title: r.title,
      description: r.description,
      priority: r.priority as Priority,
      estimate: r.estimate,
      dueDate: r.dueDate,
      team: { id: r.teamId, key, name: teamName },
      state: { id: r.stateId, name: stateName, type: stateType },
      assignee: assignee ? { id: r.assigneeId!, name: assignee[0], email: assignee[1] } : null,
      project: r.projectId ? { id: r.projectId, name: projects[r.projectId]! } : null,
      cycle: r.cycleId ? { id: r.cycleId, number: cycles[r.cycleId]! } : null,
      labels: labels[r.id] ?? [],
      parentId: r.parentId,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      completedAt: r.completedAt,
    };
  });
}

/**
 * Filter keys whose values do not change which plan is best: the workspace, the caller, teams (an index
 * prefix whatever the team's size), state types, specials, sort and paging. A list filtered by nothing else
 * is a prepared statement with a generic plan, made once per connection instead of on every request (for
 * these, PostgreSQL would otherwise keep replanning: 1.8 instead of 2.1 ms for a team page). Words, states,
 * people, labels, projects and cycles can match a handful of issues or most of them, so those lists are
 * planned for their values each time.
 */
const PLAN_FREE_KEYS: ReadonlySet<string> = new Set([
  "team",
  "stateType",
  "special",
  "sort",
  "limit",
  "offset",
]);

/** One page of the issues matching `filter`, filtered, sorted and paged in SQL. */
export async function listIssues(scope: WorkspaceScope, filter: IssueFilter): Promise<IssuePage> {
  const query = await issueListQuery(scope, filter);
  const rows = await sql<ListRow>(scope.em, query.text, query.params, {
    prepare: genericPlanWhenOnly(filter, PLAN_FREE_KEYS),
  });
  // An empty page may be a reference naming nothing: that is a 404/400, not an empty list.
  if (rows.length === 0) await query.check();
  const more = rows.length > query.limit;
  return {
    issues: issuesFromRows(more ? rows.slice(0, query.limit) : rows),
    nextOffset: more ? query.offset + query.limit : null,
  };
}
