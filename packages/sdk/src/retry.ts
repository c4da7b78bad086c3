import { TrackerNetworkError } from "./errors.js";

export interface RetryOptions {
  fetch: (request: Request) => Promise<Response>;
  maxRetries: number;
  /** First backoff step in ms; doubled each retry. */
  baseDelayMs?: number;
  /** Upper bound of one backoff step in ms. */
  maxDelayMs?: number;
  /** Injectable for tests. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

/** The longest `Retry-After` the client will wait, in ms. */
export const MAX_RETRY_AFTER_MS = 60_000;

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
// Statuses a gateway or an overloaded server answers; the request may or may not have been acted on.
const TRANSIENT = new Set([502, 503, 504]);
// Connection failures that prove the request never reached the server, so even a POST is safe to resend.
const NEVER_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * Parses `Retry-After` (delta-seconds or an HTTP date) into a wait in ms, capped at 60 s; `undefined`
 * when absent or unparseable.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}

/** Exponential backoff with jitter: attempt 0 waits base/2..base, attempt 1 base..2·base, ... */
export function backoffDelay(attempt: number, baseDelayMs = 300, maxDelayMs = 8_000): number {
  const step = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
  return step / 2 + Math.random() * (step / 2);
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function errorCode(error: unknown): string | undefined {
  // undici wraps the socket error: TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }).
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Wraps `fetch` with the SDK's retry policy:
 * - 429 (refused before acting): retried for every method, after `Retry-After` when given;
 * - 502/503/504 and network errors: retried for idempotent methods only (GET, PUT, DELETE), after
 *   `Retry-After` (503) or exponential backoff with jitter; a POST/PATCH may already have been acted on;
 * - a connection that was refused outright is retried for every method (nothing was sent).
 * Network failures surface as `TrackerNetworkError`; an abort through the request's signal is rethrown as is.
 */
export function retryingFetch(options: RetryOptions): (request: Request) => Promise<Response> {
  const wait = options.sleep ?? sleep;
  return async (request) => {
    const idempotent = IDEMPOTENT.has(request.method.toUpperCase());
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < options.maxRetries;
      // Each attempt sends a clone: a body can be read once, and the original stays intact for the next try.
      const sent = canRetry ? request.clone() : request;
      let response: Response;
      try {
        response = await options.fetch(sent);
      } catch (error) {
        if (request.signal?.aborted) throw error;
        const neverSent = NEVER_SENT.has(errorCode(error) ?? "");
        if (canRetry && (idempotent || neverSent)) {
          await wait(backoffDelay(attempt, options.baseDelayMs, options.maxDelayMs), request.signal);
          continue;
        }
        const reason = error instanceof Error ? (errorCode(error) ?? error.message) : String(error);
        throw new TrackerNetworkError(
          `Could not reach the Tracker API at ${new URL(request.url).origin} (${reason}) after ${attempt + 1} attempt(s).`,
          { cause: error },
        );
      }
      const retryable = response.status === 429 || (TRANSIENT.has(response.status) && idempotent);
      if (!canRetry || !retryable) return response;
      const delay =
        (response.status === 429 || response.status === 503
          ? parseRetryAfter(response.headers.get("retry-after"))
          : undefined) ?? backoffDelay(attempt, options.baseDelayMs, options.maxDelayMs);
      // Free the connection of the answer we are discarding.
      await response.body?.cancel().catch(() => {});
      await wait(delay, request.signal);
    }
  };
}
