import type { EntityManager } from "@mikro-orm/postgresql";
import { pgArray } from "../modules/shared/pg-array.js";

/**
 * Runs SQL in the EntityManager's transaction, when it has one. Positional `?` parameters. A JavaScript
 * array is sent as ONE PostgreSQL array value (cast it: `= any(?::uuid[])`), empty arrays included: the
 * layer below would otherwise splice it into a comma list, which breaks `any`, `unnest` and empty lists.
 */
export function sql<T = Record<string, unknown>>(
  em: EntityManager,
  query: string,
  params: unknown[] = [],
): Promise<T[]> {
  const values = params.map((p) => (Array.isArray(p) ? pgArray(p) : p));
  return em.execute<T[]>(query, values as never[]);
}

export async function sqlOne<T = Record<string, unknown>>(
  em: EntityManager,
  query: string,
  params: unknown[] = [],
): Promise<T | undefined> {
  return (await sql<T>(em, query, params))[0];
}

/** Timestamps go out as ISO 8601 strings; the driver gives Date objects. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value == null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
