/**
 * The server's rate-limit budget as its answer stated it. The fields are `null` when the server sent no
 * `RateLimit-*` (or `X-RateLimit-*`) headers; `throttled` is what this client saw either way.
 */
export interface RateLimitInfo {
  /** Requests allowed in the window (`RateLimit-Limit`). */
  limit: number | null;
  /** Requests left in the window (`RateLimit-Remaining`). */
  remaining: number | null;
  /** Seconds until the budget is full again (`RateLimit-Reset`). */
  resetSeconds: number | null;
  /** How many 429 `rate_limited` answers this call waited out before this answer. */
  throttled: number;
}

/**
 * What the server said about one call besides its body: on every answer, not only on errors. Read it
 * with `responseOf(result)` (or the result's non-enumerable `lastResponse`),
 * `tracker.lastResponse`, or an `onResponse` hook.
 */
export interface ResponseInfo {
  /** The `X-Request-Id` of the answer: quote it when reporting a fault. */
  requestId: string | undefined;
  status: number;
  method: string;
  /** The full URL called. */
  url: string;
  /** The workspace the call acted in (`X-Service-Workspace` of the answer), when it acted in one. */
  workspace: string | undefined;
  /** True when the server replayed the first answer to this `Idempotency-Key` instead of acting again. */
  replayed: boolean;
  /** Attempts the call took (1 when the first answer was kept). */
  attempts: number;
  rateLimit: RateLimitInfo;
  headers: Headers;
}

/** What the retrying fetch knows about the answer it returns: how many attempts, how many 429 waits. */
export interface CallStats {
  method: string;
  attempts: number;
  throttled: number;
}

const stats = new WeakMap<Response, CallStats>();

/** Records what it took to get `response` (the retrying fetch calls this on the answer it returns). */
export function recordStats(response: Response, callStats: CallStats): void {
  stats.set(response, callStats);
}

function headerNumber(headers: Headers, name: string): number | null {
  const value = headers.get(name) ?? headers.get(`x-${name}`);
  if (value === null) return null;
  // The IETF draft allows a list (`100, 100;w=60`): the first item is the one in force.
  const n = Number.parseFloat(value.split(/[,;]/)[0]!.trim());
  return Number.isFinite(n) ? n : null;
}

/** Describes a response the SDK received. */
export function describeResponse(response: Response): ResponseInfo {
  const { headers } = response;
  const callStats = stats.get(response) ?? { method: "GET", attempts: 1, throttled: 0 };
  return {
    requestId: headers.get("x-request-id") ?? undefined,
    status: response.status,
    method: callStats.method,
    url: response.url,
    workspace: headers.get("x-service-workspace") ?? undefined,
    replayed: headers.get("idempotent-replayed") === "true",
    attempts: callStats.attempts,
    rateLimit: {
      limit: headerNumber(headers, "ratelimit-limit"),
      remaining: headerNumber(headers, "ratelimit-remaining"),
      resetSeconds: headerNumber(headers, "ratelimit-reset"),
      throttled: callStats.throttled,
    },
    headers,
  };
}

/**
 * Marks a result with the answer it came from, as a non-enumerable `lastResponse` property: invisible
 * to `JSON.stringify`, spreading and equality checks, so results stay plain data.
 */
export function attachResponse<T>(value: T, info: ResponseInfo): T {
  if (value !== null && typeof value === "object" && Object.isExtensible(value))
    Object.defineProperty(value, "lastResponse", { value: info, enumerable: false, configurable: true });
  return value;
}

/**
 * The answer a result of an SDK method came from: its request id, status, workspace, whether it was
 * replayed, the attempts it took and the rate-limit state. `undefined` for a value the SDK did not return
 * (or one with no body, such as a delete's: use `tracker.lastResponse` or `onResponse` there).
 *
 * @example
 * const issue = await tracker.issues.create({ team: "ENG", title: "Fix login" });
 * console.log(responseOf(issue)?.requestId);
 */
export function responseOf(value: unknown): ResponseInfo | undefined {
  if (value === null || typeof value !== "object") return undefined;
  return (value as { lastResponse?: ResponseInfo }).lastResponse;
}

/** An attempt about to be sent. `headers` may be changed (a trace header, say); the body may not. */
export interface RequestEvent {
  method: string;
  url: string;
  headers: Headers;
  /** 1 for the first attempt of a call, 2 for its first retry, ... */
  attempt: number;
}

/** An attempt answered (any status, also one that will be retried). */
export interface ResponseEvent extends ResponseInfo {
  attempt: number;
  durationMs: number;
}

/** An attempt that got no answer: a network failure, its time limit, or the caller's abort. */
export interface RequestErrorEvent {
  method: string;
  url: string;
  attempt: number;
  durationMs: number;
  error: unknown;
}

/**
 * Hooks around every attempt of every call, for logging and tracing. They run in the call: a hook that
 * throws fails the call, and a slow one slows it.
 *
 * @example
 * const tracker = createTracker({
 *   onRequest: ({ headers }) => headers.set("traceparent", currentTraceparent()),
 *   onResponse: ({ method, url, status, requestId, durationMs }) =>
 *     console.error(`${method} ${url} ${status} ${durationMs} ms (${requestId})`),
 * });
 */
export interface RequestHooks {
  onRequest?: ((event: RequestEvent) => void | Promise<void>) | undefined;
  onResponse?: ((event: ResponseEvent) => void | Promise<void>) | undefined;
  onError?: ((event: RequestErrorEvent) => void | Promise<void>) | undefined;
}
