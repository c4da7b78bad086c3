import type { Client } from "openapi-fetch";
import { TrackerError } from "./errors.js";
import type { paths } from "./generated/schema.js";
import { attachResponse, describeResponse, type ResponseInfo } from "./response.js";

export type RawClient = Client<paths>;

/**
 * Options every resource method takes as its last argument.
 *
 * @example
 * const controller = new AbortController();
 * await tracker.issues.create(
 *   { team: "ENG", title: "Fix login" },
 *   { signal: controller.signal, timeoutMs: 5_000, idempotencyKey: importRowId },
 * );
 */
export interface CallOptions {
  /** Cancels the call, every attempt and any wait between them. */
  signal?: AbortSignal | undefined;
  /** Time limit per attempt in ms; default the client's `timeoutMs` (30 000); 0 turns it off. */
  timeoutMs?: number | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
  /** POST/PATCH only: the Idempotency-Key for every attempt of this call; default a fresh random UUID per call. */
  idempotencyKey?: string | undefined;
}

/**
 * What a call's settings become in openapi-fetch's options: its signal, its headers and its fetch. (A type,
 * not an interface, so it fits openapi-fetch's index-signature parameter when passed alone.)
 */
export type CallInit = {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  fetch: (request: Request) => Promise<Response>;
};

/**
 * One page of a paged list (`issues`, `projects`, `initiatives`): its items, and the `cursor` and the
 * `offset` of the next page, `null` on the last (the `offset` also on a page asked for by `cursor`).
 */
export interface Page<T> {
  items: T[];
  nextOffset: number | null;
  nextCursor: string | null;
}

/** What every resource namespace receives: the configured openapi-fetch client. */
export interface Http {
  raw: RawClient;
  /**
   * The openapi-fetch options that carry one call's `CallOptions`; `once`: sent once, not retried (a
   * streamed upload).
   */
  init(options?: CallOptions, once?: boolean): CallInit;
}

/**
 * Awaits an openapi-fetch call and returns its data, or throws the `TrackerError` its error body
 * describes. The data, and each object or array directly in it (what a method hands back: `issue` of
 * `{ issue }`, `teams` of `{ teams }`), carries the answer's `ResponseInfo` as `lastResponse`.
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw TrackerError.fromResponse(response, error);
  const info = describeResponse(response);
  attachResponse(data, info);
  if (data !== null && typeof data === "object" && !Array.isArray(data))
    for (const value of Object.values(data)) attachResponse(value, info);
  return data as T;
}

/** Like `unwrap`, for operations whose answer is only `{ ok: true }` or `{ deleted: true }`. */
export async function done(call: Promise<{ error?: unknown; response: Response }>): Promise<void> {
  const { error, response } = await call;
  if (!response.ok) throw TrackerError.fromResponse(response, error);
}

/** Builds a page from a list's answer, marked with the answer it came from like every result. */
export function pageOf<T>(
  answer: object,
  items: T[],
  nextOffset: number | null,
  nextCursor?: string | null,
): Page<T> {
  const info = (answer as { lastResponse?: ResponseInfo }).lastResponse;
  // Undefined (kept, for `paginate`) from a server older than `nextCursor`.
  const page = { items, nextOffset, nextCursor: nextCursor as string | null };
  return info ? attachResponse(page, info) : page;
}

/**
 * Every item of a list from `query` on (its `offset` or `cursor`, else the start), following each page's
 * `nextCursor` until it is `null`: a walk by cursor lists an item that does not change once, whatever else
 * changes meanwhile (the contract's "Pagination"), where offsets repeat and skip items. A server that
 * answers no `nextCursor` is followed by `nextOffset`.
 */
export async function* paginate<Q extends { offset?: number; cursor?: string }, Item>(
  query: Q,
  fetchPage: (query: Q) => Promise<Page<Item>>,
): AsyncGenerator<Item> {
  const { offset: _offset, cursor: _cursor, ...rest } = query;
  let page = await fetchPage(query);
  for (;;) {
    yield* page.items;
    const next = page.nextCursor;
    if (next) page = await fetchPage({ ...rest, cursor: next } as Q);
    else if (next === undefined && page.nextOffset !== null)
      page = await fetchPage({ ...rest, offset: page.nextOffset } as Q);
    else return;
  }
}
