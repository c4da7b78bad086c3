import type { components } from "./generated/schema.js";

/**
 * The contract's value sets at run time, generated from openapi.yaml (`--enum-values`), for checking input
 * and writing help before a request is made. Example: `ISSUE_SPECIAL_FILTERS.includes(flag)`.
 */
export {
  apiKeyAccessValues as API_KEY_ACCESS,
  apiKeyScopeValues as API_KEY_SCOPES,
  healthValues as HEALTH_VALUES,
  initiativeSortValues as INITIATIVE_SORTS,
  initiativeSpecialFilterValues as INITIATIVE_SPECIAL_FILTERS,
  initiativeStatusValues as INITIATIVE_STATUSES,
  issueRelationTypeValues as ISSUE_RELATION_TYPES,
  issueSortValues as ISSUE_SORTS,
  issueSpecialFilterValues as ISSUE_SPECIAL_FILTERS,
  memberRoleValues as MEMBER_ROLES,
  problemCodeValues as PROBLEM_CODES,
  projectSortValues as PROJECT_SORTS,
  projectSpecialFilterValues as PROJECT_SPECIAL_FILTERS,
  projectStatusValues as PROJECT_STATUSES,
  stateTypeValues as STATE_TYPES,
  viewKindValues as VIEW_KINDS,
  webhookDeliveryStatusValues as WEBHOOK_DELIVERY_STATUSES,
  workflowTriggerValues as WORKFLOW_TRIGGERS,
} from "./generated/schema.js";

type Priority = components["schemas"]["Priority"];

/** Priority numbers by the words people use: index 0 is "none", 1 "urgent" ... 4 "low". */
export const PRIORITY_NAMES = ["none", "urgent", "high", "medium", "low"] as const;
export type PriorityName = (typeof PRIORITY_NAMES)[number];

/**
 * Reads a priority as people write it: `0`-`4` or a name (`high`), case-insensitively; undefined when it
 * is neither. Example: `parsePriority("High") === 2`.
 */
export function parsePriority(input: string | number): Priority | undefined {
  if (typeof input === "number")
    return Number.isInteger(input) && input >= 0 && input <= 4 ? (input as Priority) : undefined;
  const lower = input.trim().toLowerCase();
  const byName = PRIORITY_NAMES.indexOf(lower as PriorityName);
  if (byName >= 0) return byName as Priority;
  if (/^[0-4]$/.test(lower)) return Number(lower) as Priority;
  return undefined;
}

/** The word for a priority number, capitalised (`2` → "High"); "" for none. */
export function priorityName(priority: number): string {
  return priority === 0
    ? ""
    : (PRIORITY_NAMES[priority] ?? String(priority)).replace(/^./, (c) => c.toUpperCase());
}
