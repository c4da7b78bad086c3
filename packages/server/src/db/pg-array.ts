/**
 * A PostgreSQL array literal (`{"a","b",NULL}`) for one `?` placeholder, cast in SQL (`?::uuid[]`).
 * `sql()` applies it to every array parameter, so callers pass plain arrays.
 */
export function pgArray(values: readonly (string | number | null | undefined)[]): string {
  const items = values.map((v) =>
    v == null ? "NULL" : `"${String(v).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`,
  );
  return `{${items.join(",")}}`;
}
