/**
 * Times and dates between PostgreSQL and the contract, whose timestamps are ISO 8601 strings in UTC with
 * milliseconds (`date-time`) and whose dates are `YYYY-MM-DD` (`date`), see `openapi.yaml`.
 */

/** "Today" is the UTC date, for due dates, target dates and time windows. */
export const TODAY = "((now() at time zone 'utc')::date)";

/** Timestamps go out as ISO 8601 strings; the driver gives Date objects. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value == null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** Timestamps formatted by PostgreSQL exactly like `Date.prototype.toISOString()` (UTC, milliseconds). */
export const isoSql = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A date column as the contract's `YYYY-MM-DD` text (never a driver-dependent Date). */
export const dateSql = (col: string) => `to_char(${col}, 'YYYY-MM-DD')`;

/**
 * A timestamp or date as the text of its JSON value, in UTC for a timestamp (`"2026-11-24T15:10:03.5564"`):
 * ISO 8601 whatever the session's DateStyle, at about half the cost of `isoSql` and `to_char` for dates,
 * which were a quarter of a list page's statement. `isoFromJson` and `dateFromJson` read it back.
 */
export const jsonTimeSql = (col: string, timestamp = true) =>
  `to_json(${col}${timestamp ? " at time zone 'UTC'" : ""})::text`;

/** `jsonTimeSql`'s timestamp as `isoSql` writes it: milliseconds (truncated, like to_char's MS) and `Z`. */
export function isoFromJson(json: string | null): string | null {
  if (json === null) return null;
  const dot = json.indexOf(".");
  if (dot < 0) return `${json.slice(1, -1)}.000Z`;
  return `${json.slice(1, dot)}.${json
    .slice(dot + 1, dot + 4)
    .replace('"', "")
    .padEnd(3, "0")}Z`;
}

/** `jsonTimeSql`'s date as its `YYYY-MM-DD` text. */
export const dateFromJson = (json: string | null): string | null =>
  json === null ? null : json.slice(1, -1);
