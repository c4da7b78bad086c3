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

/** Priority numbers by the words people use; 0 is "none". */
export const PRIORITY_NAMES = ["none", "urgent", "high", "medium", "low"] as const;

/** The contract stores priority as 0-4; agents may say "high" just as well. */
export function toPriority(input: number | (typeof PRIORITY_NAMES)[number]): Schemas["Priority"] {
  return (typeof input === "number" ? input : PRIORITY_NAMES.indexOf(input)) as Schemas["Priority"];
}
