import type { components } from "@tracker/sdk/schema";
import { genericPlanWhenOnly, sqlOne } from "../../../db/sql.js";
import type { SqlFragment } from "../../../db/sql-fragment.js";
import { AUTH_EPOCH_SQL, confirmCaller } from "../../../http/auth.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { Invalid } from "../../../http/problem.js";
import { type WorkspaceNames, withLatestNames } from "../../shared/workspace-names.js";
import { asList, compileIssueFilter, type IssueFilter } from "./filter.js";
import { PLAN_FREE_KEYS } from "./list.query.js";

export type IssueCounts = components["schemas"]["IssueCounts"];
export type IssueCountGrouping = components["schemas"]["IssueCountGrouping"];
/** The list's filters (no paging, no sort) and what to group by: the contract's `countIssues` query. */
export type IssueCountQuery = Omit<IssueFilter, "sort" | "limit" | "offset"> & {
  groupBy?: IssueCountGrouping;
};

/**
 * Each grouping's key as an expression over `issues i`, every one a column of the issue itself, so the
 * count reads nothing but the issues the filter selects. Labels group by the issue's `label_ids` (kept by
 * triggers: migration `…_issue_label_ids`), few distinct sets, which the statement then unnests: an issue
 * with two labels counts in both groups, one without any in the `null` group.
 */
const GROUP_KEY_SQL: Record<IssueCountGrouping, string> = {
  state: "i.state_id",
  stateType: "i.state_type",
  assignee: "i.assignee_id",
  priority: "i.priority",
  label: "i.label_ids",
  project: "i.project_id",
  cycle: "i.cycle_id",
  team: "i.team_id",
};

/** The filter keys whose values leave the best plan unchanged (`PLAN_FREE_KEYS`), and the grouping. */
const COUNT_PLAN_FREE_KEYS: ReadonlySet<string> = new Set([...PLAN_FREE_KEYS, "groupBy"]);

/**
 * The statement of a count: the filter compiled as the list compiles it (`compileIssueFilter`), so every
 * filter counts exactly what the list pages through, grouped in one pass over the matching issues.
 * Exported for the bench.
 */
export async function issueCountQuery(scope: WorkspaceScope, query: IssueCountQuery, names?: WorkspaceNames) {
  const { groupBy = "state", ...filter } = query;
  const key = GROUP_KEY_SQL[groupBy];
  if (!key)
    throw new Invalid(`Unknown groupBy "${groupBy}".`, [
      { path: "/query/groupBy", message: `must be one of: ${Object.keys(GROUP_KEY_SQL).join(", ")}` },
    ]);
  const compiled = await compileIssueFilter(scope, filter, { names, archivedOnRow: true });
  const board = boardCounts(filter, groupBy, compiled.teamSql);
  if (board) return { statement: countsAnswer(scope, board), compiled, prepare: "generic" as const };
  // Labels: each set of label ids once with its issues, then one group per label of the sets.
  const groups =
    groupBy === "label"
      ? `select l.k, sum(g.n)::int as n
           from g cross join lateral unnest(case when cardinality(g.k) = 0 then array[null::uuid] else g.k end) l(k)
          group by l.k`
      : "select g.k, g.n from g";
  const statement = countsAnswer(
    scope,
    {
      sql: `select ${key} as k, count(*)::int as n from issues i where ${compiled.where} group by 1`,
      params: compiled.params,
    },
    groups,
  );
  return { statement, compiled, prepare: genericPlanWhenOnly(query, COUNT_PLAN_FREE_KEYS) };
}

/**
 * A team's counts by state or state type (a board's columns, of every issue or of some state types) as
 * `(k, n)` rows from the counts the database keeps per team and state (`team_state_counts`,
 * `db/functions/team-state-counts.ts`): a few rows instead of every issue of the team. The team is resolved with the caller's visibility as the filter resolves it
 * (`teamSql`), so a team the caller cannot see counts nothing, as with the general statement.
 */
function boardCounts(
  filter: IssueFilter,
  groupBy: IssueCountGrouping,
  team: { sql: string; params: unknown[] } | undefined,
): SqlFragment | undefined {
  if (!team || (groupBy !== "state" && groupBy !== "stateType")) return undefined;
  const keys = Object.entries(filter).filter(([, v]) => v !== undefined && v !== null && v !== "");
  // The team alone, or with state types (a board of open issues): both are properties of the state.
  if (!keys.every(([k]) => k === "team" || k === "stateType")) return undefined;
  // The compiler has checked the state types' names already.
  const types = asList(filter.stateType);
  const key = groupBy === "state" ? "c.state_id" : "s.type";
  return {
    sql: `select ${key} as k, sum(c.n)::int as n
            from team_state_counts c join workflow_states s on s.id = c.state_id
           where c.team_id = ${team.sql} and c.n > 0 ${types.length ? "and s.type = any(?::text[])" : ""}
           group by 1`,
    params: [...team.params, ...(types.length ? [types] : [])],
  };
}

/**
 * The contract's `IssueCounts` (with what the caller checks: the names version and the auth epoch) from
 * `grouped`, a statement of `(k, n)` rows; `groups` reads them from `g` (labels unnest theirs first).
 */
function countsAnswer(
  scope: WorkspaceScope,
  grouped: SqlFragment,
  groups = "select g.k, g.n from g",
): SqlFragment {
  return {
    sql: `with g as (${grouped.sql})
          select (select coalesce(sum(g.n), 0)::int from g) as total,
                 coalesce((select json_agg(json_build_object('key', x.k, 'count', x.n) order by x.n desc, x.k)
                             from (${groups}) x), '[]'::json) as groups,
                 (select w.names_version::text from workspaces w where w.id = ?) as "namesVersion",
                 ${AUTH_EPOCH_SQL} as "authEpoch"`,
    params: [...grouped.params, scope.workspace.id],
  };
}

interface CountRow extends IssueCounts {
  namesVersion: string;
  authEpoch: string | null;
}

/**
 * How many issues match the list's filters, in total and per group (the contract's `countIssues`). A
 * filter naming labels compares their ids from the names cache, as the list does (`withLatestNames`).
 */
export async function countIssues(scope: WorkspaceScope, query: IssueCountQuery): Promise<IssueCounts> {
  if (!asList(query.label).length) return (await countOnce(scope, query, undefined))!;
  return withLatestNames(scope.em, scope.workspace.id, (latest) => countOnce(scope, query, latest));
}

/** The counts, or undefined when the filter was compiled from names of another version than it ran at. */
async function countOnce(
  scope: WorkspaceScope,
  query: IssueCountQuery,
  names: WorkspaceNames | undefined,
): Promise<IssueCounts | undefined> {
  const { statement, compiled, prepare } = await issueCountQuery(scope, query, names);
  const row = (await sqlOne<CountRow>(scope.em, statement, { prepare }))!;
  confirmCaller(scope, row.authEpoch);
  if (compiled.namesVersion !== undefined && row.namesVersion !== compiled.namesVersion) return undefined;
  // Nothing matched: a reference naming nothing is the list's 404 or 400, not a zero.
  if (row.total === 0) await compiled.check();
  return { total: row.total, groups: row.groups };
}
