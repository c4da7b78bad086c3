import type { components } from "@tracker/sdk/schema";
import {
  decodeCursor,
  encodeCursor,
  type KeysetKey,
  type KeyValue,
  type KeyValueType,
  keysetBranches,
  refuseCursorWithOffset,
} from "../../db/keyset.js";
import { TODAY } from "../../db/sql-time.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { FINISHED_STATUSES_SQL } from "../../rules/state-types.js";
import { isUuid } from "../shared/resolve.query.js";
import { HEALTH_RANK, orderTerm } from "./progress.js";

/**
 * What the project and initiative lists share: the contract gives both the same status, lead, health and
 * special filters, sorts and paging (`GET /projects`, `GET /initiatives`), compiled here once to conditions
 * on the alias `h` (a row with the list's computed `percent` and `health`). Each list builds its own
 * statement around them; the SQL text is the one the bench measured for both.
 */

type Schemas = components["schemas"];

export interface PlanningQuery<Status, Special, Sort> {
  /** Only these ids (single-row reads reuse the list's computation). */
  ids?: string[];
  status?: Status[];
  lead?: string[];
  health?: Schemas["Health"][];
  special?: Special[];
  sort?: Sort;
  /** No limit: every match. */
  limit?: number;
  offset?: number;
  /** Start after the row this `nextCursor` was made from (the contract's "Pagination"); not with `offset`. */
  cursor?: string;
}

/** A condition: literal text, or text with its `?` parameters. */
export type Term = string | { sql: string; params: unknown[] };

/** Special filters both lists have, with the same meaning. */
type SharedSpecial = "overdue" | "no_target_date" | "no_lead" | "update_overdue" | "off_track" | "led_by_me";

/** Not completed or canceled: the statuses both kinds share for "done". */
export const OPEN = `h.status not in ${FINISHED_STATUSES_SQL}`;

/** Open, with its target date in this month or quarter (UTC). */
export const dueThis = (period: "month" | "quarter"): Term =>
  `${OPEN} and date_trunc('${period}', h.target_date) = date_trunc('${period}', ${TODAY})`;

/**
 * The shared special filters. `active` is the status whose rows owe weekly status updates, `updates` the
 * `status_updates` column that points at the row. Never updated counts from the row's creation, so a new
 * one is not overdue at once.
 */
export function sharedSpecials(
  scope: WorkspaceScope,
  o: { active: string; updates: "project_id" | "initiative_id" },
): Record<SharedSpecial, Term> {
  return {
    overdue: `${OPEN} and h.target_date < ${TODAY}`,
    no_target_date: "h.target_date is null",
    no_lead: "h.lead_id is null",
    update_overdue: `h.status = '${o.active}' and coalesce(
                      (select max(su.created_at) from status_updates su where su.${o.updates} = h.id),
                      h.created_at) < now() - interval '7 days'`,
    off_track: "h.health = 'off_track'",
    led_by_me: { sql: "h.lead_id = ?", params: [scope.caller.userId] },
  };
}

/** Sort expressions both lists have; `statuses` in the contract's order, which is the status sort's. */
export function sharedSorts(statuses: readonly string[]) {
  return {
    name: "lower(h.name)",
    target: "h.target_date",
    health: HEALTH_RANK("h.health"),
    status: `array_position(array[${statuses.map((s) => `'${s}'`).join(", ")}]::text[], h.status::text)`,
    updated: "h.updated_at",
    progress: "h.percent",
  };
}

/** The conditions and parameters of one list statement, in text order. */
export class PlanningConditions {
  readonly where: string[];
  constructor(
    first: string,
    readonly params: unknown[],
  ) {
    this.where = [first];
  }

  add(term: Term): void {
    if (typeof term === "string") this.where.push(term);
    else {
      this.where.push(term.sql);
      this.params.push(...term.params);
    }
  }

  /** `column = any(values)`, when any values are given. */
  anyOf(column: string, type: "text" | "uuid", values: readonly string[] | undefined): void {
    if (values?.length) this.add({ sql: `${column} = any(?::${type}[])`, params: [values] });
  }

  /** Lead filter: `none`, `me`, user ids and emails, any of them. */
  lead(scope: WorkspaceScope, lead: string[] | undefined): void {
    if (!lead?.length) return;
    const refs = lead.filter((l) => l !== "none").map((l) => (l === "me" ? scope.caller.userId : l));
    const ids = refs.filter(isUuid);
    const emails = refs.filter((r) => !isUuid(r)).map((r) => r.toLowerCase());
    const alts: string[] = [];
    if (lead.includes("none")) alts.push("h.lead_id is null");
    if (ids.length) {
      alts.push("h.lead_id = any(?::uuid[])");
      this.params.push(ids);
    }
    if (emails.length) {
      alts.push("lu.email = any(?::text[])");
      this.params.push(emails);
    }
    this.where.push(`(${alts.join(" or ")})`);
  }

  /** Each special filter once, in the order given. */
  specials<S extends string>(specials: S[] | undefined, terms: Record<S, Term>): void {
    for (const special of new Set(specials ?? [])) this.add(terms[special]);
  }

  /** The `limit ? offset ?` clause (one row past the page, to know there is more), or none. */
  page(limit: number | undefined, offset: number): string {
    if (limit === undefined) return "";
    this.params.push(limit + 1, offset);
    return " limit ? offset ?";
  }
}

/** ORDER BY for a sort (`name`, `-updated`): its expression, then name and id to make it total. */
export function orderBy<K extends string>(
  sorts: Record<K, string>,
  sort: K | `-${K}`,
): { key: K; sql: string } {
  const descending = sort.startsWith("-");
  const key = (descending ? sort.slice(1) : sort) as K;
  return { key, sql: [orderTerm(sorts[key], descending), "lower(h.name) asc", "h.id asc"].join(", ") };
}

/** The page out of rows fetched one past it, and the offset and cursor of the next page when there is one. */
export function pageOf<T extends { sort_keys?: string | null }>(
  rows: T[],
  limit: number | undefined,
  offset: number,
  cursor?: PlanningCursor,
): { rows: T[]; nextOffset: number | null; nextCursor: string | null } {
  const more = limit !== undefined && rows.length > limit;
  const last = more ? rows[limit! - 1]!.sort_keys : undefined;
  return {
    rows: more ? rows.slice(0, limit) : rows,
    nextOffset: more && !cursor?.after ? offset + limit! : null,
    nextCursor:
      cursor && last ? encodeCursor(cursor.list, cursor.sort, JSON.parse(last) as KeyValue[]) : null,
  };
}

/** A sort key's value type, and whether it is never NULL, for a cursor. */
export type SortTypes<K extends string> = Record<K, { type: KeyValueType; notNull?: boolean }>;

/** The types of the shared sorts (`sharedSorts`). */
export const SHARED_SORT_TYPES: SortTypes<keyof ReturnType<typeof sharedSorts>> = {
  name: { type: "text", notNull: true },
  target: { type: "date" },
  health: { type: "int", notNull: true },
  status: { type: "int" },
  updated: { type: "timestamptz", notNull: true },
  progress: { type: "int", notNull: true },
};

/** A list's cursor: its keys (`orderBy`'s), the position it starts after, and the last row's keys as SQL. */
export interface PlanningCursor {
  list: string;
  sort: string;
  keys: KeysetKey[];
  after?: KeyValue[];
  /** The keys of a row of `h` (and the lead `lu`) as JSON text: each page's `sort_keys`. */
  sortKeysSql: string;
}

/**
 * The cursor of a list (`list`: "projects", "initiatives") in the order `orderBy` gives `sort`; with
 * `cursor`, its position (400 for one not made for this list and sort, or with an offset).
 */
export function planningCursor<K extends string>(
  list: string,
  sorts: Record<K, string>,
  types: SortTypes<K>,
  q: { sort?: K | `-${K}`; cursor?: string; offset?: number },
  fallback: K | `-${K}`,
): PlanningCursor {
  refuseCursorWithOffset(q);
  const sort = q.sort ?? fallback;
  const desc = sort.startsWith("-");
  const key = (desc ? sort.slice(1) : sort) as K;
  const keys: KeysetKey[] = [
    { expr: sorts[key], desc, ...types[key] },
    { expr: "lower(h.name)", type: "text", desc: false, notNull: true },
    { expr: "h.id", type: "uuid", desc: false, notNull: true },
  ];
  return {
    list,
    sort,
    keys,
    after: q.cursor === undefined ? undefined : decodeCursor(q.cursor, list, sort, keys),
    sortKeysSql: `json_build_array(${keys.map((k) => k.expr).join(", ")})::text`,
  };
}

/**
 * The rows after the cursor as one condition. These lists hold a workspace's projects or initiatives (a
 * thousand, not a million), read in the sort's order or computed in full before paging: the branches of
 * `keysetBranches` as one disjunction read the same index or rows as the offset path does.
 */
export function afterCursor(cursor: PlanningCursor): Term | undefined {
  if (!cursor.after) return undefined;
  const branches = keysetBranches(cursor.keys, cursor.after);
  if (!branches.length) return "false";
  return {
    sql: `(${branches.map((b) => `(${b.sql})`).join(" or ")})`,
    params: branches.flatMap((b) => b.params),
  };
}
