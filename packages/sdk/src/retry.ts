import { TrackerNetworkError, TrackerTimeoutError } from "./errors.js";
import { describeResponse, type RequestHooks, recordStats } from "./response.js";
import { randomUUID } from "./uuid.js";

export interface RetryOptions {
  fetch: (request: Request) => Promise<Response>;
  maxRetries: number;
  /** Time limit of each attempt in ms, unless the call sets its own; 0 turns it off. Default 30 000. */
  timeoutMs?: number;
  /** First backoff step in ms; doubled each retry. */
  baseDelayMs?: number;
  /** Upper bound of one backoff step in ms. */
  maxDelayMs?: number;
  /**
   * How long in all, in ms, a call may wait on 503 `service_unavailable` answers that carry `Retry-After`
   * (the server's database is restarting, or the instance drains), beyond `maxRetries`. Default 30 000.
   */
  maxUnavailableWaitMs?: number;
  /** Injectable for tests. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  /** Called around every attempt, for logging and tracing. */
  hooks?: RequestHooks | undefined;
}

/** What one call may set for all of its attempts. */
export interface CallSettings {
  /** Time limit of each attempt in ms; 0 turns it off. Default: the client's. */
  timeoutMs?: number | undefined;
  /** The `Idempotency-Key` of a POST or PATCH (ignored for other methods). */
  idempotencyKey?: string | undefined;
  /** Sent once, never retried nor cloned: a streamed body (an upload) cannot be replayed. */
  once?: boolean | undefined;
}

/** The longest `Retry-After` the client will wait, in ms. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** The default time limit of one attempt, in ms. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** The default time a call waits in all on a server that says it is briefly unavailable, in ms. */
export const DEFAULT_MAX_UNAVAILABLE_WAIT_MS = 30_000;

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
// The writes the contract makes safe to resend with an `Idempotency-Key` ("Idempotent writes").
const KEYED = new Set(["POST", "PATCH"]);
// Statuses a gateway or an overloaded server answers; the request may or may not have been acted on.
const TRANSIENT = new Set([502, 503, 504]);
// Connection failures that prove the request never reached the server, so even a POST is safe to resend.
const NEVER_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);
// Statuses whose answer has no body, which a rebuilt Response must not be given.
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
// setTimeout fires at once for anything longer.
const MAX_TIMER_MS = 2 ** 31 - 1;

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

/** Why an attempt's own signal fired: its time limit, as opposed to the caller's signal. */
class AttemptTimedOut extends Error {
  override name = "TimeoutError";
}

/**
 * Settles like `promise`, or rejects with the signal's reason as soon as it aborts, even when the fetch
 * underneath ignores signals (an injected one may).
 */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      // The losing promise must not surface later as an unhandled rejection.
      promise.catch(() => {});
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

async function problemCode(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body?.code === "string" ? body.code : undefined;
  } catch {
    return undefined;
  }
}

function isEventStream(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
}

/**
 * Wraps `fetch` with the SDK's retry and time-limit policy (the contract's "Idempotent writes" and "Time
 * limits"):
 * - every POST and PATCH carries an `Idempotency-Key` (the call's, or a fresh UUID), the same on every
 *   attempt, so the server acts at most once however often it is sent;
 * - 429 and 409 `idempotency_in_progress` (the server did not act): retried for every method, after
 *   `Retry-After`;
 * - 502/503/504, network failures and attempts over the time limit: retried when resending is safe (GET,
 *   PUT, DELETE, or an authenticated POST/PATCH, which carries a key), after `Retry-After` or exponential
 *   backoff with jitter;
 * - a connection that was refused outright is retried for every method (nothing was sent);
 * - 503 `service_unavailable` with `Retry-After` (the contract's "Availability": the server's database is
 *   restarting, or the instance drains) is retried when resending is safe, after `Retry-After`, without
 *   counting against `maxRetries` while the waits for it stay within `maxUnavailableWaitMs`.
 * Each attempt has `timeoutMs` to deliver its whole answer (an event stream: its headers). Network
 * failures surface as `TrackerNetworkError`, a last attempt over time as `TrackerTimeoutError`, and an
 * abort through the request's signal as the signal's reason.
 */
export function retryingFetch(
  options: RetryOptions,
): (request: Request, call?: CallSettings) => Promise<Response> {
  const wait = options.sleep ?? sleep;
  const backoff = (attempt: number) => backoffDelay(attempt, options.baseDelayMs, options.maxDelayMs);

  async function attemptOnce(sent: Request, timeoutMs: number): Promise<Response> {
    if (!(timeoutMs > 0)) return abortable(options.fetch(sent), sent.signal);
    const limit = new AbortController();
    const timer = setTimeout(() => limit.abort(new AttemptTimedOut()), Math.min(timeoutMs, MAX_TIMER_MS));
    const signal = AbortSignal.any([sent.signal, limit.signal]);
    try {
      const response = await abortable(options.fetch(new Request(sent, { signal })), signal);
      // A stream is read by the caller as it arrives: only its headers are bound by the limit.
      if (isEventStream(response)) return response;
      // Anything else is read here, so a server that sends headers and then stalls is caught too.
      const body = NULL_BODY.has(response.status) ? null : await abortable(response.arrayBuffer(), signal);
      const whole = new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
      Object.defineProperty(whole, "url", { value: response.url });
      return whole;
    } catch (error) {
      if (limit.signal.aborted && !sent.signal.aborted) throw limit.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  const hooks = options.hooks ?? {};

  return async (request, call = {}) => {
    const method = request.method.toUpperCase();
    const url = request.url;
    let throttled = 0;
    const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (KEYED.has(method)) {
      const key = call.idempotencyKey ?? request.headers.get("idempotency-key") ?? randomUUID();
      request.headers.set("Idempotency-Key", key);
    }
    // The server keeps keys per API key: a write without one (accepting an invite) is not deduplicated.
    const safe = IDEMPOTENT.has(method) || (KEYED.has(method) && request.headers.has("authorization"));
    const { signal } = request;

    const unavailableBudget = options.maxUnavailableWaitMs ?? DEFAULT_MAX_UNAVAILABLE_WAIT_MS;
    let unavailableWaited = 0;
    let retries = 0;
    for (let attempt = 0; ; attempt++) {
      if (signal.aborted) throw signal.reason;
      const canRetry = !call.once && retries < options.maxRetries;
      // Each attempt sends a clone: a body can be read once, and the original stays intact for the next try.
      const sent = call.once ? request : request.clone();
      await hooks.onRequest?.({ method, url, headers: sent.headers, attempt: attempt + 1 });
      const started = Date.now();
      let response: Response;
      try {
        response = await attemptOnce(sent, timeoutMs);
      } catch (error) {
        await hooks.onError?.({ method, url, attempt: attempt + 1, durationMs: Date.now() - started, error });
        if (signal.aborted) throw signal.reason;
        if (error instanceof AttemptTimedOut) {
          if (canRetry && safe) {
            await wait(backoff(retries++), signal);
            continue;
          }
          throw new TrackerTimeoutError({
            method,
            path: new URL(request.url).pathname,
            timeoutMs,
            attempts: attempt + 1,
          });
        }
        const neverSent = NEVER_SENT.has(errorCode(error) ?? "");
        if (canRetry && (safe || neverSent)) {
          await wait(backoff(retries++), signal);
          continue;
        }
        const reason = error instanceof Error ? (errorCode(error) ?? error.message) : String(error);
        throw new TrackerNetworkError(
          `Could not reach the Tracker API at ${new URL(request.url).origin} (${reason}) after ${attempt + 1} attempt(s).`,
          { cause: error },
        );
      }
      recordStats(response, { method, attempts: attempt + 1, throttled });
      await hooks.onResponse?.({
        ...describeResponse(response),
        attempt: attempt + 1,
        durationMs: Date.now() - started,
      });
      const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
      // The server says it will be back shortly: worth waiting for, within a budget of its own.
      if (
        safe &&
        response.status === 503 &&
        retryAfter !== undefined &&
        unavailableWaited + retryAfter <= unavailableBudget &&
        (await problemCode(response)) === "service_unavailable"
      ) {
        unavailableWaited += retryAfter;
        await response.body?.cancel().catch(() => {});
        await wait(retryAfter, signal);
        continue;
      }
      if (!canRetry) return response;
      const retryable =
        response.status === 429 ||
        (TRANSIENT.has(response.status) && safe) ||
        (response.status === 409 && (await problemCode(response)) === "idempotency_in_progress");
      if (!retryable) return response;
      if (response.status === 429) throttled++;
      const delay = retryAfter ?? backoff(retries);
      retries++;
      // Free the connection of the answer we are discarding.
      await response.body?.cancel().catch(() => {});
      await wait(delay, signal);
    }
  };
}
