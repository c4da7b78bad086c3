import {
  type components,
  healthValues,
  initiativeSortValues,
  initiativeSpecialFilterValues,
  initiativeStatusValues,
  issueSortValues,
  issueSpecialFilterValues,
  type operations,
  projectSortValues,
  projectSpecialFilterValues,
  projectStatusValues,
  stateTypeValues,
} from "@tracker/sdk/schema";
import { Invalid } from "../../http/problem.js";
import {
  DUE_BOUND_FORMAT,
  dueBoundDate,
  ISSUE_TIME_BOUNDS,
  type IssueFilter,
  type IssueTimeBound,
  PRIORITY_BY_NAME,
  PRIORITY_FILTER_HINT,
  TIME_BOUND_FORMAT,
  timeBoundInstant,
} from "../issues/list/filter.js";

/**
 * What a saved view may store in `filters` and `sort`, per kind. `filters` are stored as given, but only
 * with the keys (and value shapes) of the kind's list query, so a saved view always means something the
 * list endpoint understands. The keys below are checked against the contract's generated types at compile
 * time (`satisfies Record<...>` is exhaustive and admits no extra key), so a filter added to the issue
 * filter engine or a list query fails the build here until views accept it; the values are the contract's
 * generated enum lists.
 */

type Schemas = components["schemas"];
export type ViewKind = Schemas["ViewKind"];
export type ViewSort = Schemas["ViewSort"];

type Spec =
  | { type: "string" }
  /** A JSON array of strings, from `values` when given (list query parameters sent comma-separated). */
  | { type: "list"; values?: readonly string[] }
  | { type: "cycle" }
  /** Priorities by name or number (`PriorityFilterValue`). */
  | { type: "priority" }
  /** A time bound of the issue list (`ISSUE_TIME_BOUNDS`): a date or a date-time with an offset. */
  | { type: "instant" }
  /** A whole number >= 0 (estimate bounds). */
  | { type: "count" }
  /** A calendar date, `YYYY-MM-DD`, or a relative day kept as given (`+14d`; due date bounds). */
  | { type: "date" };

/** Paging and order are not filters: a view has its own `sort`, and pages are the reader's business. */
type NotFilters = "workspace" | "sort" | "limit" | "offset" | "cursor";
type ProjectFilter = NonNullable<operations["listProjects"]["parameters"]["query"]>;
type InitiativeFilter = NonNullable<operations["listInitiatives"]["parameters"]["query"]>;

const FILTER_SPECS: Record<ViewKind, Record<string, Spec>> = {
  issues: {
    team: { type: "string" },
    state: { type: "string" },
    stateType: { type: "list", values: stateTypeValues },
    assignee: { type: "string" },
    creator: { type: "string" },
    project: { type: "string" },
    parent: { type: "string" },
    cycle: { type: "cycle" },
    label: { type: "list" },
    priority: { type: "priority" },
    estimateMin: { type: "count" },
    estimateMax: { type: "count" },
    dueAfter: { type: "date" },
    dueBefore: { type: "date" },
    q: { type: "string" },
    special: { type: "list", values: issueSpecialFilterValues },
    // `false`, `true` or `any`, checked where the filter compiles (issues/list/filter.ts).
    archived: { type: "string" },
    ...(Object.fromEntries(Object.keys(ISSUE_TIME_BOUNDS).map((key) => [key, { type: "instant" }])) as Record<
      IssueTimeBound,
      Spec
    >),
  } satisfies Record<Exclude<keyof IssueFilter, NotFilters>, Spec>,
  projects: {
    initiative: { type: "string" },
    status: { type: "list", values: projectStatusValues },
    lead: { type: "list" },
    team: { type: "list" },
    health: { type: "list", values: healthValues },
    special: { type: "list", values: projectSpecialFilterValues },
  } satisfies Record<Exclude<keyof ProjectFilter, NotFilters>, Spec>,
  initiatives: {
    status: { type: "list", values: initiativeStatusValues },
    lead: { type: "list" },
    health: { type: "list", values: healthValues },
    special: { type: "list", values: initiativeSpecialFilterValues },
  } satisfies Record<Exclude<keyof InitiativeFilter, NotFilters>, Spec>,
};

const SORTS: Record<ViewKind, readonly string[]> = {
  issues: issueSortValues,
  projects: projectSortValues,
  initiatives: initiativeSortValues,
};

/** 400 unless `filters` uses only the kind's list-query keys with values of the right shape. */
export function checkViewFilters(
  kind: ViewKind,
  filters: Record<string, unknown>,
  path = "/body/filters",
): void {
  const specs = FILTER_SPECS[kind];
  const errors: { path: string; message: string }[] = [];
  for (const [key, value] of Object.entries(filters)) {
    const spec = specs[key];
    const at = `${path}/${key}`;
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
    } else if (spec.type === "count") {
      if (!Number.isInteger(value) || (value as number) < 0)
        errors.push({ path: at, message: "must be an integer >= 0" });
    } else if (spec.type === "date") {
      if (dueBoundDate(value) === undefined)
        errors.push({ path: at, message: `must be ${DUE_BOUND_FORMAT}` });
    } else if (spec.type === "cycle") {
      const ok = value === "current" || (Number.isInteger(value) && (value as number) >= 1);
      if (!ok) errors.push({ path: at, message: "must be a cycle number or current" });
    } else if (spec.type === "priority") {
      // Names or the numbers issues carry, as the list's `priority` takes them (`PriorityFilterValue`).
      const ok =
        Array.isArray(value) &&
        value.every(
          (v) =>
            (typeof v === "string" || typeof v === "number") && Object.hasOwn(PRIORITY_BY_NAME, String(v)),
        );
      if (!ok) errors.push({ path: at, message: `must be an array of priorities: ${PRIORITY_FILTER_HINT}` });
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
export function checkViewSort(kind: ViewKind, sort: string | null | undefined, path = "/body/sort"): void {
  if (sort == null) return;
  if (!SORTS[kind].includes(sort)) {
    throw new Invalid(`"${sort}" is not a sort key of ${kind} views.`, [
      { path, message: `must be one of ${SORTS[kind].join(", ")}` },
    ]);
  }
}
