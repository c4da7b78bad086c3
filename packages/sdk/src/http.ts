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
 * One page of a paged list (`issues`, `projects`, `initiatives`): its items, and the `offset` of the
 * next page, `null` on the last.
 */
export interface Page<T> {
  items: T[];
  nextOffset: number | null;
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

/**
 * Follows `nextOffset` from `query.offset` (0 by default) until the server answers `null`, yielding each
 * item of each page.
 */
/** Builds a page from a list's answer, marked with the answer it came from like every result. */
export function pageOf<T>(answer: object, items: T[], nextOffset: number | null): Page<T> {
  const info = (answer as { lastResponse?: ResponseInfo }).lastResponse;
  const page = { items, nextOffset };
  return info ? attachResponse(page, info) : page;
}

export async function* paginate<Q extends { offset?: number }, Item>(
  query: Q,
  fetchPage: (query: Q) => Promise<Page<Item>>,
): AsyncGenerator<Item> {
  let offset: number | null = query.offset ?? 0;
  while (offset !== null) {
    const page = await fetchPage({ ...query, offset });
    yield* page.items;
    offset = page.nextOffset;
  }
}
