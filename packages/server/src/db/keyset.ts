import { Invalid } from "../http/problem.js";
import type { SqlFragment } from "./sql-fragment.js";

/**
 * Keyset paging (the contract's "Pagination": `cursor` and `nextCursor`): a page starts after the last row
 * of the previous one, by the values of that row's sort keys, so rows written meanwhile neither repeat nor
 * skip the rows a client has not read yet (an `offset` counts rows, and a row moving ahead of it shifts
 * every later one). The order is the list's own ORDER BY: each key ascending with missing values (NULL)
 * last, or descending with them first, and a unique tiebreaker at the end, so "after" is exact.
 */

/** The SQL type of a key's value, as a cursor carries it back. */
export type KeyValueType = "int" | "date" | "timestamptz" | "text" | "uuid";

/** One key of the order, as the ORDER BY spells it. */
export interface KeysetKey {
  expr: string;
  type: KeyValueType;
  desc: boolean;
  /** The expression is never NULL (a NOT NULL column): no branch for its missing values. */
  notNull?: boolean;
}

export type KeyValue = string | number | null;

const cast = (type: KeyValueType) => `?::${type}`;

/**
 * The rows after `values` (one per key) in the order of `keys`, as disjoint conditions, each a range in
 * that order and all of them together in it: the first branch's rows come before the second's, and so on.
 * Each branch is one range of an index on the keys (a row comparison such as `(updated_at, team_id, number)
 * < (…)`, or a key equal or NULL and a row comparison of the rest), so a branch read in the order stops
 * after the page, as the offset path's first page does. `A or B` in one condition would not: no index range
 * holds both sides.
 */
export function keysetBranches(keys: KeysetKey[], values: KeyValue[], from = 0): SqlFragment[] {
  if (from >= keys.length) return [];
  const key = keys[from]!;
  const value = values[from]!;
  const rest = keys.slice(from + 1);
  const op = key.desc ? "<" : ">";
  // The key and every later one compared as a row: exact when none of the later ones can be NULL (a NULL
  // makes a row comparison unknown) and all go the same way; the key itself may be NULL, which the row
  // comparison leaves out (a branch of its own below).
  if (value !== null && rest.every((k) => k.notNull && k.desc === key.desc)) {
    const row = keys.slice(from);
    const branch: SqlFragment = {
      sql:
        row.length === 1
          ? `${key.expr} ${op} ${cast(key.type)}`
          : `(${row.map((k) => k.expr).join(", ")}) ${op} (${row.map((k) => cast(k.type)).join(", ")})`,
      params: values.slice(from),
    };
    return !key.desc && !key.notNull ? [branch, { sql: `${key.expr} is null`, params: [] }] : [branch];
  }
  const within = (head: SqlFragment) =>
    keysetBranches(keys, values, from + 1).map((b) => ({
      sql: `${head.sql} and ${b.sql}`,
      params: [...head.params, ...b.params],
    }));
  if (value === null) {
    // Missing values are last ascending (nothing after them) and first descending (every value after).
    const same = within({ sql: `${key.expr} is null`, params: [] });
    return key.desc ? [...same, { sql: `${key.expr} is not null`, params: [] }] : same;
  }
  const same = within({ sql: `${key.expr} = ${cast(key.type)}`, params: [value] });
  const beyond = { sql: `${key.expr} ${op} ${cast(key.type)}`, params: [value] };
  return !key.desc && !key.notNull
    ? [...same, beyond, { sql: `${key.expr} is null`, params: [] }]
    : [...same, beyond];
}

/**
 * A select of ids in the order, after the cursor: `select(condition)` is the list's own ordered select of
 * ids with one more condition (each branch in turn); with more than one branch, each branch's first `need`
 * ids are read in order and concatenated (`with ordinality` keeps each branch's order).
 */
export function keysetSource(
  branches: SqlFragment[],
  select: (condition: SqlFragment) => SqlFragment,
  need: number,
): SqlFragment {
  if (branches.length === 0) return select({ sql: "false", params: [] });
  if (branches.length === 1) return select(branches[0]!);
  const parts = branches.map((b, n) => {
    const inner = select(b);
    return {
      sql: `select ${n + 1} as b, k.o, k.id from unnest(array(${inner.sql} limit ?)) with ordinality as k(id, o)`,
      params: [...inner.params, need],
    };
  });
  return {
    sql: `select u.id from (${parts.map((p) => p.sql).join("\n union all ")}) u order by u.b, u.o`,
    params: parts.flatMap((p) => p.params),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d{1,6})?(Z|[+-](\d{2}):(\d{2}))$/;

function isDay(text: string): boolean {
  const m = DATE.exec(text);
  if (!m || Number(m[1]) < 1) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** Whether `v` is a value PostgreSQL reads as `type` without an error (a forged cursor is a 400, not a 500). */
function isValue(type: KeyValueType, v: unknown): boolean {
  if (v === null) return true;
  switch (type) {
    case "int":
      return typeof v === "number" && Number.isInteger(v) && Math.abs(v) <= 2147483647;
    case "date":
      return typeof v === "string" && isDay(v);
    case "timestamptz": {
      const m = typeof v === "string" ? TIME.exec(v) : null;
      if (!m || !isDay(m[1]!) || Number(m[5] ?? 0) > 14 || Number(m[6] ?? 0) > 59) return false;
      const [h, min, s] = m[2]!.split(":").map(Number) as [number, number, number];
      return h < 24 && min < 60 && s < 60;
    }
    case "text":
      return typeof v === "string" && v.length <= 1000 && !v.includes("\u0000");
    case "uuid":
      return typeof v === "string" && UUID.test(v);
  }
}

/** The cursor of the row whose key values are `values`, for the list `list` in the order `sort`. */
export function encodeCursor(list: string, sort: string, values: KeyValue[]): string {
  return Buffer.from(JSON.stringify([list, sort, ...values])).toString("base64url");
}

/**
 * The key values of a cursor this server made for `list` in the order `sort`, each checked against its
 * key's type; anything else is 400 `invalid_request`, as is a cursor of another sort.
 */
export function decodeCursor(cursor: string, list: string, sort: string, keys: KeysetKey[]): KeyValue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {}
  if (Array.isArray(parsed) && parsed[0] === list && parsed.length === keys.length + 2) {
    if (parsed[1] !== sort)
      throw new Invalid(
        "The cursor was made for another sort: pass the same `sort` as the page it came from.",
        [{ path: "/query/cursor", message: "was made for another sort" }],
      );
    const values = parsed.slice(2) as KeyValue[];
    if (keys.every((k, n) => isValue(k.type, values[n]) && (values[n] !== null || !k.notNull))) return values;
  }
  throw new Invalid("The cursor is not one this server gave out.", [
    { path: "/query/cursor", message: "must be a nextCursor of a previous page" },
  ]);
}

/** `cursor` and `offset` name two different starts: a request takes one of them. */
export function refuseCursorWithOffset(query: { cursor?: unknown; offset?: unknown }): void {
  if (query.cursor !== undefined && query.offset !== undefined)
    throw new Invalid("Pass either `cursor` or `offset`, not both.", [
      { path: "/query/cursor", message: "cannot be combined with offset" },
    ]);
}
