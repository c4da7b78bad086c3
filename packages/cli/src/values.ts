import type { Schemas } from "@tracker/sdk";

// Runtime copies of the contract's value sets, for flag checking and help. `Exhaustive` makes the build fail
// when openapi.yaml adds or drops a value, so these lists cannot drift from the generated types.
type Exhaustive<Union, List extends readonly Union[]> = [Exclude<Union, List[number]>] extends [never]
  ? List
  : never;

const stateTypes = ["backlog", "unstarted", "started", "completed", "canceled"] as const;
export const STATE_TYPES: Exhaustive<Schemas["StateType"], typeof stateTypes> = stateTypes;

const specialFilters = [
  "overdue",
  "due_today",
  "due_week",
  "no_due_date",
  "stale",
  "unassigned",
  "no_estimate",
  "no_project",
  "no_labels",
  "blocked",
  "blocking",
  "unstarted_overdue",
  "mine",
  "created_by_me",
] as const;
export const SPECIAL_FILTERS: Exhaustive<Schemas["IssueSpecialFilter"], typeof specialFilters> =
  specialFilters;

const sortKeys = ["priority", "due", "created", "updated", "title", "estimate", "state", "assignee"] as const;
type SortKey = (typeof sortKeys)[number];
export const ISSUE_SORTS: Exhaustive<Schemas["IssueSort"], readonly (SortKey | `-${SortKey}`)[]> = [
  ...sortKeys,
  ...sortKeys.map((key) => `-${key}` as const),
];

const roles = ["admin", "member", "guest"] as const;
export const ROLES: Exhaustive<Schemas["MemberRole"], typeof roles> = roles;

const scopes = ["workspace", "account"] as const;
export const KEY_SCOPES: Exhaustive<Schemas["ApiKeyScope"], typeof scopes> = scopes;

/** Priority numbers by the words people use; 0 is "none". */
export const PRIORITY_NAMES = ["none", "urgent", "high", "medium", "low"] as const;

/** Accepts `0`-`4` or a priority name (`high`), as the contract stores the number. */
export function parsePriority(input: string): Schemas["Priority"] | undefined {
  const lower = input.trim().toLowerCase();
  const byName = PRIORITY_NAMES.indexOf(lower as (typeof PRIORITY_NAMES)[number]);
  if (byName >= 0) return byName as Schemas["Priority"];
  if (/^[0-4]$/.test(lower)) return Number(lower) as Schemas["Priority"];
  return undefined;
}

export function priorityName(priority: number): string {
  return priority === 0
    ? ""
    : (PRIORITY_NAMES[priority] ?? String(priority)).replace(/^./, (c) => c.toUpperCase());
}
