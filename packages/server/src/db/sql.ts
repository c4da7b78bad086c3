import type { EntityManager } from "@mikro-orm/postgresql";

/** Runs SQL in the EntityManager's transaction, when it has one. Positional `?` parameters. */
export function sql<T = Record<string, unknown>>(
  em: EntityManager,
  query: string,
  params: unknown[] = [],
): Promise<T[]> {
  return em.execute<T[]>(query, params as never[]);
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
