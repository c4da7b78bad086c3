import { issueSpecialFilterValues, type operations } from "@tracker/sdk/schema";
import { stateTypeRank } from "../../../db/functions/issue-sort-keys.js";
import { type KeysetKey, type KeyValueType, refuseCursorWithOffset } from "../../../db/keyset.js";
import { TODAY } from "../../../db/sql-time.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { HttpProblem, Invalid } from "../../../http/problem.js";
import {
  NOT_STARTED_STATE_TYPES_SQL,
  OPEN_STATE_TYPES_SQL,
  STATE_TYPES,
} from "../../../rules/state-types.js";
import { visibleTeamCondition, visibleTeamIdCondition } from "../../../rules/visibility.js";
import {
  issueKeyQuery,
  isUuid,
  resolveCycle,
  resolveIssue,
  resolveProject,
  resolveState,
  resolveTeam,
  resolveUser,
} from "../../shared/resolve.query.js";
import type { WorkspaceNames } from "../../shared/workspace-names.js";
import { issueSearchCondition } from "./search.js";

/**
 * The issue list query (`listIssues`), which is also what a saved view stores in `filters`. References
 * stay as people write them (team key, state name, assignee email or `me`, project name, cycle number or
 * `current`, label NAMES), so a label rename rewrites `label` entries and the filter keeps meaning the same.
 */
export type IssueFilter = Omit<NonNullable<operations["listIssues"]["parameters"]["query"]>, "workspace">;
export type IssueSpecial = NonNullable<IssueFilter["special"]>[number];
export type IssueSortKey = NonNullable<IssueFilter["sort"]>;

/**
 * The time windows of the list query, each as its comparison on `issues i`: `...After` is inclusive,
 * `...Before` exclusive, so consecutive windows never share an issue. A NULL `completed_at` compares to
 * nothing, so the `completed...` bounds match only completed (or canceled) issues.
 */
export const ISSUE_TIME_BOUNDS = {
  createdAfter: "i.created_at >=",
  createdBefore: "i.created_at <",
  updatedAfter: "i.updated_at >=",
  updatedBefore: "i.updated_at <",
  completedAfter: "i.completed_at >=",
  completedBefore: "i.completed_at <",
} as const satisfies Partial<Record<keyof IssueFilter, string>>;
export type IssueTimeBound = keyof typeof ISSUE_TIME_BOUNDS;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2})(?::?(\d{2}))?)$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return (
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)
  );
}

const RELATIVE_DAY = /^(?:today|([+-])(\d{1,4})d)$/;

/**
 * A day relative to today's UTC date (the contract's relative form of a date bound: `today`, `+14d`,
 * `-7d`) as `YYYY-MM-DD`, resolved now, so a saved view keeps meaning "the next 14 days"; undefined when
 * `value` is not one.
 */
export function relativeDay(value: unknown, now: Date = new Date()): string | undefined {
  if (typeof value !== "string") return undefined;
  const m = RELATIVE_DAY.exec(value);
  if (!m) return undefined;
  const days = m[1] ? Number(m[2]) * (m[1] === "-" ? -1 : 1) : 0;
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
  return day.toISOString().slice(0, 10);
}

/** A due date bound as the date it names: a date, or a relative day (`+14d`) resolved against today. */
export function dueBoundDate(value: unknown): string | undefined {
  if (typeof value === "string" && isDate(value)) return value;
  return relativeDay(value);
}

/**
 * The instant a time bound names, as text PostgreSQL reads as a `timestamptz` in any session time zone: a
 * date (`2026-11-01`) is the start of that day in UTC, a date-time needs `Z` or an offset (RFC 3339, as the
 * contract's `date` and `date-time` formats; no leap seconds). Undefined when `value` is neither.
 */
export function timeBoundInstant(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  if (isDate(value)) return `${value}T00:00:00Z`;
  const relative = relativeDay(value);
  if (relative) return `${relative}T00:00:00Z`;
  const m = DATE_TIME.exec(value);
  if (!m || !isDate(m[1]!)) return undefined;
  const [hour, minute, second] = [Number(m[2]), Number(m[3]), Number(m[4])];
  const [offsetHours, offsetMinutes] = [Number(m[7] ?? 0), Number(m[8] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  return value.toUpperCase().replace(" ", "T");
}

export const TIME_BOUND_FORMAT =
  "a date (2026-11-01, the start of that UTC day), a date-time with Z or an offset, or a relative day (today, -7d)";

export const DUE_BOUND_FORMAT = "a date (2026-12-31) or a relative day (today, +14d, -7d)";

/**
 * Priorities as filters take them (the contract's `PriorityFilterValue`), by the stored number: a name
 * (`PriorityName`) or the number an issue carries, so a caller filters by what it reads.
 */
export const PRIORITY_BY_NAME: Record<string, number> = {
  none: 0,
  urgent: 1,
  high: 2,
  medium: 3,
  low: 4,
  ...{ 0: 0, 1: 1, 2: 2, 3: 3, 4: 4 },
};

/** The priorities a filter accepts, as an error lists them. */
export const PRIORITY_FILTER_HINT = "none, urgent, high, medium, low, or 0-4";

/**
 * A user reference of a filter (`assignee`, `creator`): `me`, an id, or an email of a member, as a
 * condition on `column`, and the check that makes a reference naming nobody a 404.
 */
function userCondition(
  scope: WorkspaceScope,
  column: string,
  ref: string,
): { sql: string; params: unknown[]; check?: () => Promise<unknown> } {
  if (ref === "me") return { sql: `${column} = ?`, params: [scope.caller.userId] };
  return {
    sql: `${column} = (select fu.id from users fu join memberships fm on fm.user_id = fu.id and fm.workspace_id = ?
                        where ${isUuid(ref) ? "fu.id = ?" : "fu.email = lower(?)"})`,
    params: [scope.workspace.id, ref],
    check: () => resolveUser(scope, ref),
  };
}

/** `YYYY-MM-DD` naming a real day. */
export const isDateText = (value: unknown): value is string => typeof value === "string" && isDate(value);

export const DEFAULT_ISSUE_SORT: IssueSortKey = "-updated";
export const DEFAULT_ISSUE_LIMIT = 50;
export const MAX_ISSUE_LIMIT = 200;

/**
 * A filter compiled to SQL over the `issues i` alias:
 * `select ... from issues i ${joins} where ${where} order by ${orderBy}`.
 */
export interface CompiledIssueFilter {
  /** Conditions on `issues i` only (subqueries aside): usable in any statement that has `issues i`. */
  where: string;
  /** Values of the `?` placeholders of `where`, in order. */
  params: unknown[];
  /** Joins the sort needs (`ist` workflow state, `ia` assignee), or "": they add no rows and no `?`. */
  joins: string;
  /** A total order (unique tiebreaker included) over `i` and the aliases of `joins`. */
  orderBy: string;
  /**
   * The workspace `names_version` whose names the SQL was compiled from (label names resolved to ids), or
   * undefined when it depends on no names. The SQL is exact only if the statement ran at that version.
   */
  namesVersion?: string;
  /** The ids of the labels the filter names, when it names labels and each name names one (`namesVersion`). */
  labelIds?: string[];
  /**
   * Resolves the filter's references strictly, throwing what a reference naming nothing deserves (404 for
   * team, assignee, project; 400 for a state or cycle the team lacks). `where` already matches nothing
   * then, so call it when a query came back empty (or always, if you need the refusal up front).
   */
  check(): Promise<void>;
  /** The filter's team as a subquery of its id, resolved with the caller's visibility, when it names one. */
  teamSql?: { sql: string; params: unknown[] };
}

/**
 * Not archived, as a condition on the issue whose id is `id` (of any relation with the issue's
 * `workspace_id` beside it, `ws`): an anti-join with the few archived issues of the workspace, which
 * `issues_archived_index` holds (migration `issue_archive`). Not `archived_at is null` on the row: the list's
 * index scans read what they check from covering indexes, and a column those do not carry would make each
 * index-only scan fetch every row it reads from the table.
 */
export const notArchivedSql = (id: string, ws: string) =>
  `not exists (select from issues xa where xa.workspace_id = ${ws} and xa.id = ${id} and xa.archived_at is not null)`;

/** The list's `archived` filter as a condition on `issues i` (none for `any`). */
function archivedCondition(value: unknown, onRow = false): string | undefined {
  if (value === undefined || value === null || value === "false" || value === false)
    return onRow ? "i.archived_at is null" : notArchivedSql("i.id", "i.workspace_id");
  if (value === "true" || value === true) return "i.archived_at is not null";
  if (value === "any") return undefined;
  throw new Invalid(`Unknown archived filter "${value}": use true, false or any.`, [
    { path: "/query/archived", message: "must be one of: false, true, any" },
  ]);
}

/** Spelled as the predicate of `issues_open_updated_index`, so the planner can prove the partial index applies. */
const OPEN = `i.state_type in ${OPEN_STATE_TYPES_SQL}`;

/** Each computed filter as a condition on `issues i`; `?` is the caller's user id where used. */
const SPECIAL_SQL: Record<IssueSpecial, string> = {
  overdue: `${OPEN} and i.due_date < ${TODAY}`,
  due_today: `${OPEN} and i.due_date = ${TODAY}`,
  due_week: `${OPEN} and i.due_date between ${TODAY} and ${TODAY} + 6`,
  no_due_date: "i.due_date is null",
  stale: `${OPEN} and i.updated_at < now() - interval '14 days'`,
  unassigned: "i.assignee_id is null",
  no_estimate: "i.estimate is null",
  no_project: "i.project_id is null",
  // `label_ids` mirrors `issue_labels` (triggers): checked on the row a sort's index scan reads.
  no_labels: "cardinality(i.label_ids) = 0",
  // Counters kept by the database on every relation and state change (migration `issue_blockers`), each
  // with a partial index of the few issues it is positive for.
  blocked: "i.open_blockers > 0",
  blocking: "i.open_blocking > 0",
  unstarted_overdue: `i.state_type in ${NOT_STARTED_STATE_TYPES_SQL} and i.due_date < ${TODAY}`,
  mine: "i.assignee_id = ?",
  created_by_me: "i.creator_id = ?",
  // The caller's rows of `issue_subscriptions` (modules/notifications), found by its (user, workspace) index.
  subscribed:
    "exists (select 1 from issue_subscriptions s where s.issue_id = i.id and s.user_id = ? and s.subscribed)",
};

/**
 * Sort keys as nullable SQL expressions, ascending = the natural order. Missing values are NULL, so
 * `asc nulls last` / `desc nulls first` puts them last ascending and first descending, and the descending
 * order is the exact reverse of the ascending one (an index on the expression serves both directions).
 */
export const SORT_SQL: Record<
  string,
  // `types`: each expression's SQL type and whether it can be NULL, for a cursor (`db/keyset.ts`).
  { exprs: string[]; types: KeyValueType[]; notNull?: boolean[]; joins?: string }
> = {
  // 1 urgent first ... 4 low; 0 "none" is missing.
  priority: { exprs: ["nullif(i.priority, 0)"], types: ["int"] },
  due: { exprs: ["i.due_date"], types: ["date"] },
  created: { exprs: ["i.created_at"], types: ["timestamptz"], notNull: [true] },
  updated: { exprs: ["i.updated_at"], types: ["timestamptz"], notNull: [true] },
  title: { exprs: ["lower(i.title)"], types: ["text"], notNull: [true] },
  estimate: { exprs: ["i.estimate"], types: ["int"] },
  // State type order (backlog, unstarted, started, completed, canceled), then the state's workflow position;
  // the assignee's name. Both on keys the database keeps on the issue, in the order of an index
  // (db/functions/issue-sort-keys.ts), so a page stops after the page as every other sort does.
  state: {
    exprs: [stateTypeRank("i.state_type"), "i.state_position"],
    types: ["int", "int"],
    notNull: [true, false],
  },
  assignee: { exprs: ["i.assignee_sort"], types: ["text"] },
};

/**
 * SQL ORDER BY of a sort key (and the joins it needs); ties break by team then issue number (unique),
 * reversed with the key, so `-key` is exactly the reverse of `key` and one index serves both.
 */
export function issueOrderBy(sort: string = DEFAULT_ISSUE_SORT): { orderBy: string; joins: string } {
  const desc = sort.startsWith("-");
  const key = desc ? sort.slice(1) : sort;
  const spec = SORT_SQL[key];
  if (!spec)
    throw new Invalid(`Unknown sort "${sort}".`, [{ path: "/query/sort", message: "is not a sort key" }]);
  const dir = desc ? "desc nulls first" : "asc nulls last";
  const tie = desc ? "desc" : "asc";
  return {
    orderBy: [...spec.exprs.map((e) => `${e} ${dir}`), `i.team_id ${tie}`, `i.number ${tie}`].join(", "),
    joins: spec.joins ?? "",
  };
}

/**
 * The keys of a sort's order (`issueOrderBy`), tiebreakers included, for a cursor (`db/keyset.ts`): the
 * values a page's last row has for them start the next page.
 */
export function issueKeysetKeys(sort: string = DEFAULT_ISSUE_SORT): KeysetKey[] {
  const desc = sort.startsWith("-");
  const spec = SORT_SQL[desc ? sort.slice(1) : sort];
  if (!spec)
    throw new Invalid(`Unknown sort "${sort}".`, [{ path: "/query/sort", message: "is not a sort key" }]);
  return [
    ...spec.exprs.map((expr, n) => ({
      expr,
      type: spec.types[n]!,
      desc,
      notNull: spec.notNull?.[n] ?? false,
    })),
    { expr: "i.team_id", type: "uuid", desc, notNull: true },
    { expr: "i.number", type: "int", desc, notNull: true },
  ];
}

/** Whether the list is in `updated` order, either way: the order the first sources of a page walk. */
export function sortsByUpdated(filter: Pick<IssueFilter, "sort">): boolean {
  return filter.sort === undefined || filter.sort === "updated" || filter.sort === "-updated";
}

/** An order by over `issues i` (`issueOrderBy`) as the same order over `alias`, a select of those columns. */
export function orderByOver(orderBy: string, alias: string): string {
  return orderBy.replace(/\bi\./g, `${alias}.`);
}

/** A reference that names something the team does not have is a bad request (contract), not a 404. */
async function asInvalid<T>(path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof HttpProblem && e.status === 404)
      throw new Invalid(e.message, [{ path, message: e.message }]);
    throw e;
  }
}

export const asList = <T>(v: T[] | T | undefined | null): T[] =>
  v == null ? [] : Array.isArray(v) ? v : [v];

/** Printable ASCII only (label names hold no control characters). */
const ASCII = /^[ -~]*$/;
/** Per names object: label id by lowercased name, or null when a name is not ASCII (see `labelIdsOf`). */
const labelIdsByName = new WeakMap<WorkspaceNames, Map<string, string> | null>();

/**
 * The ids of the labels `names` (matched case-insensitively) name in `known`, null for a name naming no
 * label, or undefined when JavaScript's lowercasing may differ from PostgreSQL's `lower()` (a name that is
 * not ASCII, in the filter or among the workspace's labels): the caller then matches names in SQL.
 */
function labelIdsOf(known: WorkspaceNames, names: string[]): (string | null)[] | undefined {
  let byName = labelIdsByName.get(known);
  if (byName === undefined) {
    const labels = Object.entries(known.labels);
    byName = labels.every(([, [name]]) => ASCII.test(name))
      ? new Map(labels.map(([id, [name]]) => [name.toLowerCase(), id]))
      : null;
    labelIdsByName.set(known, byName);
  }
  if (!byName || !names.every((n) => ASCII.test(n))) return undefined;
  return names.map((n) => byName.get(n.toLowerCase()) ?? null);
}

/**
 * Compiles a filter (the list query or a saved view's `filters`) to SQL for the caller: references are
 * resolved (404 for a team, assignee or project naming nothing; 400 for `state`/`cycle` without `team` or
 * naming nothing in it), and only teams the caller may see are included. Values that did not pass the
 * contract's validation (saved filters) are checked here too.
 */
export async function compileIssueFilter(
  scope: WorkspaceScope,
  filter: IssueFilter,
  options: {
    /**
     * The statement will run on a generic plan: build the full-text query once per execution (an init
     * plan), since a generic plan would rebuild it in each row's recheck. A plan made for the values folds
     * it while planning instead, and estimates the matches from it.
     */
    genericPlan?: boolean;
    /**
     * The workspace's names as this server caches them: label names become their ids, so the statement
     * compares `issues.label_ids` with a constant (`issues_label_ids_index`, estimated from the column's
     * statistics). The result's `namesVersion` is then theirs.
     */
    names?: WorkspaceNames;
    /**
     * "Not archived" as `archived_at is null` on the row rather than the anti-join of `notArchivedSql`:
     * for a count, whose covering index (`issues_team_counts_index`) holds only the issues not archived,
     * so the condition is the index's own predicate and the count stays an index-only scan.
     */
    archivedOnRow?: boolean;
  } = {},
): Promise<CompiledIssueFilter> {
  const where: string[] = ["i.workspace_id = ?"];
  const params: unknown[] = [scope.workspace.id];
  const add = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };

  if (filter.state != null && filter.team == null)
    throw new Invalid("Filtering by state needs `team`: state names belong to a team.", [
      { path: "/query/state", message: "needs team" },
    ]);
  if (filter.cycle != null && filter.team == null)
    throw new Invalid("Filtering by cycle needs `team`: cycle numbers belong to a team.", [
      { path: "/query/cycle", message: "needs team" },
    ]);

  // References are compiled to subqueries, not looked up first: a list costs one round trip. The
  // subqueries match exactly what the resolvers of shared/resolve.query.ts match, and `check` runs those
  // resolvers (for their 404/400) only when the page comes back empty: a reference that names nothing
  // can only give an empty page.
  const checks: (() => Promise<unknown>)[] = [];
  let teamSql: { sql: string; params: unknown[] } | undefined;
  if (filter.team != null) {
    const ref = String(filter.team);
    const vis = visibleTeamCondition(scope, "ft");
    const team = `(select ft.id from teams ft where ft.workspace_id = ? and ${isUuid(ref) ? "ft.id = ?" : "ft.key = ?"}
                    and ${vis.sql})`;
    const teamParams = [scope.workspace.id, ref, ...vis.params];
    teamSql = { sql: team, params: teamParams };
    add(`i.team_id = ${team}`, ...teamParams);
    let stateRef: string | undefined;
    let cycleRef: number | "current" | undefined;
    if (filter.state != null) {
      stateRef = String(filter.state);
      add(
        `i.state_id = (select fs.id from workflow_states fs where fs.team_id = ${team}
                          and ${isUuid(stateRef) ? "fs.id = ?" : "lower(fs.name) = lower(?)"})`,
        ...teamParams,
        stateRef,
      );
    }
    if (filter.cycle != null) {
      const c = filter.cycle;
      if (c !== "current" && !(Number.isInteger(Number(c)) && Number(c) >= 1))
        throw new Invalid(`Unknown cycle "${c}": use a cycle number or \`current\`.`, [
          { path: "/query/cycle", message: "must be a cycle number or current" },
        ]);
      cycleRef = c === "current" ? "current" : Number(c);
      if (cycleRef === "current")
        add(
          `i.cycle_id = (select fc.id from cycles fc where fc.team_id = ${team}
                            and fc.starts_at <= now() and fc.ends_at > now() order by fc.starts_at desc limit 1)`,
          ...teamParams,
        );
      else
        add(
          `i.cycle_id = (select fc.id from cycles fc where fc.team_id = ${team} and fc.number = ?)`,
          ...teamParams,
          cycleRef,
        );
    }
    checks.push(async () => {
      // resolveTeam applies visibility: a team the caller may not see is "not found".
      const row = await resolveTeam(scope, ref);
      if (stateRef !== undefined)
        await asInvalid("/query/state", () => resolveState(scope, row.id, stateRef));
      if (cycleRef !== undefined)
        await asInvalid("/query/cycle", () => resolveCycle(scope, row.id, cycleRef));
    });
  } else {
    const vis = visibleTeamIdCondition(scope, "i.team_id");
    add(vis.sql, ...vis.params);
  }

  const stateTypes = asList(filter.stateType);
  for (const t of stateTypes)
    if (!(STATE_TYPES as readonly string[]).includes(t))
      throw new Invalid(`Unknown state type "${t}".`, [
        { path: "/query/stateType", message: `must be one of: ${STATE_TYPES.join(", ")}` },
      ]);
  if (stateTypes.length) add("i.state_type = any(?::text[])", stateTypes);

  // Each user reference compares the column an index leads with (`issues_assignee_id_index`,
  // `issues_creator_id_index`) with one value; `assignee=none` is `special=unassigned`.
  for (const [key, column] of [
    ["assignee", "i.assignee_id"],
    ["creator", "i.creator_id"],
  ] as const) {
    if (filter[key] == null) continue;
    const ref = String(filter[key]);
    if (key === "assignee" && ref === "none") {
      add("i.assignee_id is null");
      continue;
    }
    const cond = userCondition(scope, column, ref);
    add(cond.sql, ...cond.params);
    if (cond.check) checks.push(cond.check);
  }

  // Sub-issues of one parent read `issues_parent_id_index`; `none` and `any` are conditions on the row.
  if (filter.parent != null) {
    const ref = String(filter.parent);
    if (ref === "none") add("i.parent_id is null");
    else if (ref === "any") add("i.parent_id is not null");
    else {
      const parent = issueKeyQuery(scope, ref);
      if (!parent)
        throw new Invalid(`"${ref}" is not an issue identifier or id, nor none or any.`, [
          { path: "/query/parent", message: "must be an issue identifier or id, none or any" },
        ]);
      add(`i.parent_id = (select fpi.id from (${parent.sql}) fpi)`, ...parent.params);
      checks.push(() => resolveIssue(scope, ref));
    }
  }

  // Spelled as the expression of `issues_workspace_priority_sort_index` (`nullif(priority, 0)`), so the
  // index serves the filter as well as the sort; priority 0 is "none", which that expression makes NULL.
  const priorities = asList(filter.priority).map(String);
  if (priorities.length) {
    const unknown = priorities.filter((p) => !Object.hasOwn(PRIORITY_BY_NAME, p));
    if (unknown.length)
      throw new Invalid(`Unknown priority "${unknown[0]}".`, [
        { path: "/query/priority", message: `must be one of: ${PRIORITY_FILTER_HINT}` },
      ]);
    const stored = priorities.map((p) => PRIORITY_BY_NAME[p]!);
    const numbers = [...new Set(stored.filter((n) => n > 0))];
    const none = stored.includes(0);
    if (numbers.length && none)
      add("(nullif(i.priority, 0) = any(?::int[]) or nullif(i.priority, 0) is null)", numbers);
    // One priority as a plain comparison: with it the planner reads the priority's newest issues from
    // `issues_workspace_priority_updated_index` under the default sort (an `= any` keeps it from that order).
    else if (numbers.length === 1) add("nullif(i.priority, 0) = ?::int", numbers[0]);
    else if (numbers.length) add("nullif(i.priority, 0) = any(?::int[])", numbers);
    else add("nullif(i.priority, 0) is null");
  }

  // Ranges on `issues_workspace_id_estimate_team_id_number_index` and `..._due_date_...`: NULL never
  // compares, so an issue without an estimate or due date is outside every range.
  for (const [key, comparison] of [
    ["estimateMin", "i.estimate >="],
    ["estimateMax", "i.estimate <="],
  ] as const) {
    const value = filter[key];
    if (value === undefined || value === null) continue;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0)
      throw new Invalid(`${key} must be a whole number >= 0.`, [
        { path: `/query/${key}`, message: "must be an integer >= 0" },
      ]);
    add(`${comparison} ?::int`, n);
  }
  for (const [key, comparison] of [
    ["dueAfter", "i.due_date >="],
    ["dueBefore", "i.due_date <"],
  ] as const) {
    const value = filter[key];
    if (value === undefined || value === null) continue;
    const date = dueBoundDate(value);
    if (date === undefined)
      throw new Invalid(`${key} must be ${DUE_BOUND_FORMAT}: "${value}" is not.`, [
        { path: `/query/${key}`, message: `must be ${DUE_BOUND_FORMAT}` },
      ]);
    add(`${comparison} ?::date`, date);
  }
  if (filter.project != null) {
    const ref = String(filter.project);
    add(
      `i.project_id = (select fp.id from projects fp
                        where fp.workspace_id = ? and ${isUuid(ref) ? "fp.id = ?" : "lower(fp.name) = lower(?)"})`,
      scope.workspace.id,
      ref,
    );
    checks.push(() => resolveProject(scope, ref));
  }

  // Every named label must be on the issue (names match case-insensitively, like label names themselves).
  // With the cached names, the ids are constants the GIN index on `label_ids` and the column's element
  // statistics both see: one label of many is read in the sort's order, two in the intersection of their
  // posting lists (bench/README.md, "Labels"). A list of one or two labels in `updated` order first walks
  // the first label's postings (`labelWalkSource`, with `labelIds`). A name naming no label matches no issue.
  let namesVersion: string | undefined;
  let labelIdSet: string[] | undefined;
  let labelNames = asList(filter.label).map(String);
  // `label=none` alone: issues without labels, as `special=no_labels`.
  if (labelNames.length === 1 && labelNames[0]!.toLowerCase() === "none") {
    add("cardinality(i.label_ids) = 0");
    labelNames = [];
  }
  const labelIds = labelNames.length && options.names ? labelIdsOf(options.names, labelNames) : undefined;
  if (labelIds) {
    namesVersion = options.names!.version;
    if (labelIds.includes(null)) add("false");
    else {
      labelIdSet = [...new Set(labelIds as string[])];
      add("i.label_ids @> ?::uuid[]", labelIdSet);
    }
  } else
    for (const name of labelNames)
      add(
        `exists (select 1 from issue_labels fl join labels fll on fll.id = fl.label_id
                  where fl.issue_id = i.id and fll.workspace_id = ? and lower(fll.name) = lower(?))`,
        scope.workspace.id,
        name,
      );

  // Last but one: archived issues are few, so the other conditions choose the plan (`notArchivedSql`).
  const archived = archivedCondition(filter.archived, options.archivedOnRow);
  if (archived) add(archived);

  const q = filter.q?.trim();
  if (q) {
    const search = issueSearchCondition(scope, q, options.genericPlan ?? false);
    add(search.sql, ...search.params);
  }

  // Compared with the bound as a value, so a plan is made for it: how many issues a window holds decides
  // between the sort's index and the timestamp's.
  for (const [key, comparison] of Object.entries(ISSUE_TIME_BOUNDS) as [IssueTimeBound, string][]) {
    const value = filter[key];
    if (value === undefined) continue;
    const instant = timeBoundInstant(value);
    if (instant === undefined)
      throw new Invalid(`${key} must be ${TIME_BOUND_FORMAT}: "${value}" is not.`, [
        { path: `/query/${key}`, message: `must be ${TIME_BOUND_FORMAT}` },
      ]);
    add(`${comparison} ?::timestamptz`, instant);
  }

  for (const special of new Set(asList(filter.special))) {
    const condition = SPECIAL_SQL[special as IssueSpecial];
    if (!condition)
      throw new Invalid(`Unknown special filter "${special}".`, [
        { path: "/query/special", message: `must be one of: ${issueSpecialFilterValues.join(", ")}` },
      ]);
    if (special === "mine" || special === "created_by_me" || special === "subscribed")
      add(condition, scope.caller.userId);
    else add(`(${condition})`);
  }

  return {
    where: where.join("\n and "),
    params,
    namesVersion,
    labelIds: labelIdSet,
    ...(teamSql ? { teamSql } : {}),
    ...issueOrderBy(filter.sort ?? DEFAULT_ISSUE_SORT),
    check: async () => {
      for (const run of checks) await run();
    },
  };
}

/** The page window of a filter: `limit` 1..200 (default 50), `offset` >= 0. */
export function issuePage(filter: Pick<IssueFilter, "limit" | "offset" | "cursor">): {
  limit: number;
  offset: number;
} {
  refuseCursorWithOffset(filter);
  const limit = filter.limit ?? DEFAULT_ISSUE_LIMIT;
  const offset = filter.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ISSUE_LIMIT)
    throw new Invalid(`limit must be between 1 and ${MAX_ISSUE_LIMIT}.`, [
      { path: "/query/limit", message: `must be between 1 and ${MAX_ISSUE_LIMIT}` },
    ]);
  if (!Number.isInteger(offset) || offset < 0)
    throw new Invalid("offset must be a non-negative integer.", [
      { path: "/query/offset", message: "must be >= 0" },
    ]);
  return { limit, offset };
}
