import type { Client } from "openapi-fetch";
import { TrackerError } from "./errors.js";
import type { paths } from "./generated/schema.js";

export type RawClient = Client<paths>;

/** What every resource namespace receives: the configured openapi-fetch client. */
export interface Http {
  raw: RawClient;
}

/**
 * Awaits an openapi-fetch call and returns its data, or throws the `TrackerError` its error body
 * describes.
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw TrackerError.fromResponse(response, error);
  return data as T;
}

/** Like `unwrap`, for operations whose answer is only `{ ok: true }` or `{ deleted: true }`. */
export async function done(call: Promise<{ error?: unknown; response: Response }>): Promise<void> {
  const { error, response } = await call;
  if (!response.ok) throw TrackerError.fromResponse(response, error);
}

/**
 * Follows `nextOffset` from `query.offset` (0 by default) until the server answers `null`, yielding each
 * item of each page.
 */
export async function* paginate<Q extends { offset?: number }, P extends { nextOffset: number | null }, Item>(
  query: Q,
  fetchPage: (query: Q) => Promise<P>,
  items: (page: P) => Item[],
): AsyncGenerator<Item> {
  let offset: number | null = query.offset ?? 0;
  while (offset !== null) {
    const page = await fetchPage({ ...query, offset });
    yield* items(page);
    offset = page.nextOffset;
  }
}
