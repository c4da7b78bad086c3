import { sql } from "../../db/sql.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { ISSUE_COLUMNS, ISSUE_FROM, type IssueOut, type IssueRow, issueFromRow } from "./issue.serialize.js";
import { compileIssueFilter, type IssueFilter, issuePage } from "./issue-filter.js";

export interface IssuePage {
  issues: IssueOut[];
  nextOffset: number | null;
}

/**
 * The one statement of a list page. The inner select filters, sorts and pages over `issues` alone (plus the
 * join a state or assignee sort needs), so an index on the sort key can stop after the page; only the
 * page's ids are then joined to their team, state, people, project, cycle and labels, in page order.
 * One row more than the page is fetched to know whether another page follows. Exported for the bench.
 */
export async function issueListQuery(scope: WorkspaceScope, filter: IssueFilter) {
  const { limit, offset } = issuePage(filter);
  const compiled = await compileIssueFilter(scope, filter);
  return {
    text: `select ${ISSUE_COLUMNS}
       from ${ISSUE_FROM}
       join unnest(array(
              select i.id from issues i ${compiled.joins}
               where ${compiled.where}
               order by ${compiled.orderBy}
               limit ? offset ?
            )) with ordinality as page(id, ord) on page.id = i.id
      order by page.ord`,
    params: [...compiled.params, limit + 1, offset],
    limit,
    offset,
    check: compiled.check,
  };
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

function planIsValueFree(filter: IssueFilter): boolean {
  return Object.entries(filter).every(([key, value]) => value === undefined || PLAN_FREE_KEYS.has(key));
}

/** One page of the issues matching `filter`, filtered, sorted and paged in SQL. */
export async function listIssues(scope: WorkspaceScope, filter: IssueFilter): Promise<IssuePage> {
  const query = await issueListQuery(scope, filter);
  const rows = await sql<IssueRow>(scope.em, query.text, query.params, {
    prepare: planIsValueFree(filter) ? "generic" : false,
  });
  // An empty page may be a reference naming nothing: that is a 404/400, not an empty list.
  if (rows.length === 0) await query.check();
  const more = rows.length > query.limit;
  return {
    issues: (more ? rows.slice(0, query.limit) : rows).map(issueFromRow),
    nextOffset: more ? query.offset + query.limit : null,
  };
}
