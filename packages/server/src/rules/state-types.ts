import { type components, stateTypeValues } from "@tracker/sdk/schema";

/**
 * What counts as open and as finished, for issues (by their workflow state's type) and for projects and
 * initiatives (by their status): one definition each, read by the list filters, the triggers that keep
 * blockers counted, the partial indexes, and every write that sets or clears `completedAt`.
 */

export type StateType = components["schemas"]["StateType"];
type ProjectStatus = components["schemas"]["ProjectStatus"];
type InitiativeStatus = components["schemas"]["InitiativeStatus"];

/** The contract's workflow state kinds (`StateType`), in its order, which is the workflow's. */
export const STATE_TYPES = stateTypeValues;

/**
 * Each state type's side. The contract's `special` filters: "open" = state type not completed or canceled.
 * Spelled as a record over every type, so a type added to the contract fails to compile until it is placed.
 */
const STATE_TYPE_SIDE = {
  backlog: "open",
  unstarted: "open",
  started: "open",
  completed: "finished",
  canceled: "finished",
} as const satisfies Record<StateType, "open" | "finished">;

const typesOn = (side: "open" | "finished") => STATE_TYPES.filter((t) => STATE_TYPE_SIDE[t] === side);

/** Backlog, unstarted and started: work not done yet. */
export const OPEN_STATE_TYPES: readonly StateType[] = typesOn("open");
/** Completed and canceled: entering one sets an issue's `completedAt`, leaving it clears it. */
export const FINISHED_STATE_TYPES: readonly StateType[] = typesOn("finished");
/** Open and not begun: the `unstarted_overdue` filter's types. */
export const NOT_STARTED_STATE_TYPES: readonly StateType[] = ["backlog", "unstarted"];

export const isFinished = (type: StateType): boolean => STATE_TYPE_SIDE[type] === "finished";

/** An SQL list of text values, `('a', 'b')`: the spelling the partial indexes' predicates were made with. */
const sqlList = (values: readonly string[]) => `(${values.map((v) => `'${v}'`).join(", ")})`;

/** `('backlog', 'unstarted', 'started')`: as the blockers' counters, `issues_open_updated_index` and the filters spell it. */
export const OPEN_STATE_TYPES_SQL = sqlList(OPEN_STATE_TYPES);
/** `('completed', 'canceled')` */
export const FINISHED_STATE_TYPES_SQL = sqlList(FINISHED_STATE_TYPES);
/** `('backlog', 'unstarted')` */
export const NOT_STARTED_STATE_TYPES_SQL = sqlList(NOT_STARTED_STATE_TYPES);

/**
 * Project and initiative statuses that are done: "open" = status not completed or canceled (the
 * contract's `special` filters of `GET /projects` and `GET /initiatives`).
 */
export const FINISHED_STATUSES = ["completed", "canceled"] as const satisfies readonly (ProjectStatus &
  InitiativeStatus)[];
export const FINISHED_STATUSES_SQL = sqlList(FINISHED_STATUSES);

/** Project statuses left out of progress (`uncounted`; an initiative's `excluded` projects). */
export const UNCOUNTED_PROJECT_STATUSES = ["paused", "canceled"] as const satisfies readonly ProjectStatus[];
export const UNCOUNTED_PROJECT_STATUSES_SQL = sqlList(UNCOUNTED_PROJECT_STATUSES);
