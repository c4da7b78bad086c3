import type { components, operations } from "@tracker/sdk/schema";
import { Invalid } from "../../http/problem.js";
import {
  ISSUE_SPECIALS,
  ISSUE_TIME_BOUNDS,
  type IssueFilter,
  type IssueTimeBound,
  TIME_BOUND_FORMAT,
  timeBoundInstant,
} from "../issues/issue-filter.js";
import { STATE_TYPES } from "../teams/team.entity.js";

/**
 * What a saved view may store in `filters` and `sort`, per kind. `filters` are stored as given, but only
 * with the keys (and value shapes) of the kind's list query, so a saved view always means something the
 * list endpoint understands. The key and value sets below are checked against the contract's generated
 * types at compile time (`satisfies Record<...>` is exhaustive and admits no extra key), so a filter added
 * to the issue filter engine or a list query fails the build here until views accept it.
 */

type Schemas = components["schemas"];
export type ViewKind = Schemas["ViewKind"];
export type ViewSort = Schemas["ViewSort"];

type Spec =
  | { type: "string" }
  /** A JSON array of strings, from `values` when given (list query parameters sent comma-separated). */
  | { type: "list"; values?: readonly string[] }
  | { type: "cycle" }
  /** A time bound of the issue list (`ISSUE_TIME_BOUNDS`): a date or a date-time with an offset. */
  | { type: "instant" };

const keysOf = <T extends string>(record: Record<T, true>) => Object.keys(record) as T[];

const PROJECT_STATUSES = keysOf({
  backlog: true,
  planned: true,
  started: true,
  paused: true,
  completed: true,
  canceled: true,
} satisfies Record<Schemas["ProjectStatus"], true>);
const INITIATIVE_STATUSES = keysOf({
  planned: true,
  active: true,
  completed: true,
  canceled: true,
} satisfies Record<Schemas["InitiativeStatus"], true>);
const HEALTH = keysOf({ on_track: true, at_risk: true, off_track: true } satisfies Record<
  Schemas["Health"],
  true
>);
const PROJECT_SPECIALS = keysOf({
  overdue: true,
  due_month: true,
  no_target_date: true,
  stale: true,
  no_lead: true,
  no_initiative: true,
  no_issues: true,
  update_overdue: true,
  off_track: true,
  uncounted: true,
  led_by_me: true,
} satisfies Record<Schemas["ProjectSpecialFilter"], true>);
const INITIATIVE_SPECIALS = keysOf({
  overdue: true,
  due_quarter: true,
  no_target_date: true,
  stale: true,
  no_lead: true,
  no_projects: true,
  no_counted_work: true,
  update_overdue: true,
  off_track: true,
  has_excluded: true,
  led_by_me: true,
} satisfies Record<Schemas["InitiativeSpecialFilter"], true>);

/** Paging and order are not filters: a view has its own `sort`, and pages are the reader's business. */
type NotFilters = "workspace" | "sort" | "limit" | "offset";
type ProjectFilter = NonNullable<operations["listProjects"]["parameters"]["query"]>;
type InitiativeFilter = NonNullable<operations["listInitiatives"]["parameters"]["query"]>;

const FILTER_SPECS: Record<ViewKind, Record<string, Spec>> = {
  issues: {
    team: { type: "string" },
    state: { type: "string" },
    stateType: { type: "list", values: STATE_TYPES },
    assignee: { type: "string" },
    project: { type: "string" },
    cycle: { type: "cycle" },
    label: { type: "list" },
    q: { type: "string" },
    special: { type: "list", values: ISSUE_SPECIALS },
    ...(Object.fromEntries(Object.keys(ISSUE_TIME_BOUNDS).map((key) => [key, { type: "instant" }])) as Record<
      IssueTimeBound,
      Spec
    >),
  } satisfies Record<Exclude<keyof IssueFilter, NotFilters>, Spec>,
  projects: {
    initiative: { type: "string" },
    status: { type: "list", values: PROJECT_STATUSES },
    lead: { type: "list" },
    team: { type: "list" },
    health: { type: "list", values: HEALTH },
    special: { type: "list", values: PROJECT_SPECIALS },
  } satisfies Record<Exclude<keyof ProjectFilter, NotFilters>, Spec>,
  initiatives: {
    status: { type: "list", values: INITIATIVE_STATUSES },
    lead: { type: "list" },
    health: { type: "list", values: HEALTH },
    special: { type: "list", values: INITIATIVE_SPECIALS },
  } satisfies Record<Exclude<keyof InitiativeFilter, NotFilters>, Spec>,
};

const sortKeys = <T extends string>(record: Record<T, true>) =>
  keysOf(record).flatMap((k) => [k, `-${k}`]) as string[];
const SORTS: Record<ViewKind, string[]> = {
  issues: sortKeys({
    priority: true,
    due: true,
    created: true,
    updated: true,
    title: true,
    estimate: true,
    state: true,
    assignee: true,
  } satisfies Record<Exclude<Schemas["IssueSort"], `-${string}`>, true>),
  projects: sortKeys({
    name: true,
    target: true,
    health: true,
    status: true,
    updated: true,
    progress: true,
    scope: true,
    lead: true,
  } satisfies Record<Exclude<Schemas["ProjectSort"], `-${string}`>, true>),
  initiatives: sortKeys({
    name: true,
    target: true,
    health: true,
    status: true,
    updated: true,
    progress: true,
    projects: true,
  } satisfies Record<Exclude<Schemas["InitiativeSort"], `-${string}`>, true>),
};

/** 400 unless `filters` uses only the kind's list-query keys with values of the right shape. */
export function checkViewFilters(
  kind: ViewKind,
  filters: Record<string, unknown>,
  path = "body.filters",
): void {
  const specs = FILTER_SPECS[kind];
  const errors: { path: string; message: string }[] = [];
  for (const [key, value] of Object.entries(filters)) {
    const spec = specs[key];
    const at = `${path}.${key}`;
    if (!spec) {
      errors.push({
        path: at,
        message: `is not a filter of ${kind} views (known: ${Object.keys(specs).join(", ")})`,
      });
      continue;
    }
    if (value === null) continue;
    if (spec.type === "string") {
      if (typeof value !== "string") errors.push({ path: at, message: "must be a string" });
    } else if (spec.type === "instant") {
      if (timeBoundInstant(value) === undefined)
        errors.push({ path: at, message: `must be ${TIME_BOUND_FORMAT}` });
    } else if (spec.type === "cycle") {
      const ok = value === "current" || (Number.isInteger(value) && (value as number) >= 1);
      if (!ok) errors.push({ path: at, message: "must be a cycle number or current" });
    } else if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
      errors.push({ path: at, message: "must be an array of strings" });
    } else if (spec.values) {
      const bad = value.filter((v) => !spec.values!.includes(v as string));
      if (bad.length)
        errors.push({ path: at, message: `unknown values ${bad.join(", ")}; use ${spec.values.join(", ")}` });
    }
  }
  if (errors.length) throw new Invalid("The view's filters are not valid for its kind.", errors);
}

/** 400 unless `sort` (when set) is a sort key of the kind. */
export function checkViewSort(kind: ViewKind, sort: string | null | undefined, path = "body.sort"): void {
  if (sort == null) return;
  if (!SORTS[kind].includes(sort)) {
    throw new Invalid(`"${sort}" is not a sort key of ${kind} views.`, [
      { path, message: `must be one of ${SORTS[kind].join(", ")}` },
    ]);
  }
}
