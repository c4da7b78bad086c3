/**
 * A piece of SQL with its `?` parameters, in text order. Fragments compose with {@link q}, so a statement
 * built from several modules' fragments (one round trip instead of one per fragment) keeps its parameters
 * in step with its placeholders. `visibleTeamCondition` and similar `{ sql, params }` values are fragments.
 */
export interface SqlFragment {
  sql: string;
  params: unknown[];
}

const isFragment = (v: unknown): v is SqlFragment =>
  typeof v === "object" &&
  v !== null &&
  !Array.isArray(v) &&
  !(v instanceof Date) &&
  typeof (v as SqlFragment).sql === "string" &&
  Array.isArray((v as SqlFragment).params);

/**
 * Tagged template: interpolated fragments are spliced in (their parameters with them), anything else
 * becomes one `?` parameter (an array is one PostgreSQL array value, see `sql()`).
 *
 *     q`select 1 from issues i where i.id = ${id} and ${vis}`
 */
export function q(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  let text = strings[0]!;
  const params: unknown[] = [];
  values.forEach((v, n) => {
    if (isFragment(v)) {
      text += v.sql;
      params.push(...v.params);
    } else {
      text += "?";
      params.push(v);
    }
    text += strings[n + 1]!;
  });
  return { sql: text, params };
}

/** Literal SQL text (no parameters), for splicing a constant fragment with {@link q}. */
export const raw = (text: string): SqlFragment => ({ sql: text, params: [] });

/** No SQL: the branch of a statement that a condition leaves out. */
export const EMPTY = raw("");

/** Fragments joined with a separator. */
export function joinSql(parts: SqlFragment[], separator: string): SqlFragment {
  return { sql: parts.map((p) => p.sql).join(separator), params: parts.flatMap((p) => p.params) };
}
