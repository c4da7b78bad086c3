import { type components, problemCodeValues } from "./generated/schema.js";

/** A problem's stable `code`, as the contract lists them (`ProblemCode`). */
export type ProblemCode = components["schemas"]["ProblemCode"];

/** One offending input of an `invalid_request` problem, e.g. `{ path: "/body/title", message: "is required" }`. */
export interface TrackerFieldError {
  path: string;
  message: string;
}

/** A workspace a `workspace_required` problem offers to choose from. */
export interface TrackerWorkspaceChoice {
  id: string;
  slug: string;
  name: string;
}

// The codes the contract pairs with each status, used when an error body is not a problem (a proxy's HTML
// page, an empty body) or names a code this version does not know, so callers can still switch on `code`.
const CODE_BY_STATUS: Partial<Record<number, ProblemCode>> = {
  400: "invalid_request",
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  410: "invite_expired",
  413: "payload_too_large",
  // A proxy's "URI too long" is the contract's long-request-line case.
  414: "headers_too_large",
  422: "idempotency_key_reused",
  429: "rate_limited",
  431: "headers_too_large",
  500: "internal_error",
  501: "not_implemented",
  // A gateway that got no answer in time, or none at all, is a service that is not available.
  502: "service_unavailable",
  503: "service_unavailable",
  504: "service_unavailable",
};

const KNOWN_CODES: ReadonlySet<string> = new Set(problemCodeValues);

/** The code to report for a status when the answer names none this version knows. */
export function codeForStatus(status: number): ProblemCode {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? "internal_error" : "invalid_request");
}

/**
 * An error answer from the Tracker API, built from its `application/problem+json` body. Switch on `code`
 * (stable, snake_case); `status` is the HTTP status; `requestId` matches the server's logs.
 *
 * @example
 * try {
 *   await tracker.issues.get("ENG-999");
 * } catch (err) {
 *   if (err instanceof TrackerError && err.code === "not_found") console.error(err.detail);
 *   else throw err;
 * }
 */
export class TrackerError extends Error {
  override name = "TrackerError";
  /** HTTP status, e.g. 404. */
  status: number;
  /**
   * Stable problem code, e.g. `not_found`, `invalid_request`, `workspace_required`. A code newer than this
   * SDK is reported by its status (the contract's rule for unknown codes), as is an answer that is not a
   * problem.
   */
  code: ProblemCode;
  /** Short fixed summary of the code, e.g. "Not found". */
  title: string;
  /** What went wrong this time, fit to show a user. */
  detail: string;
  /** The `X-Request-Id` of the failed call. */
  requestId: string | undefined;
  /** For `invalid_request`: one entry per offending input. */
  errors: TrackerFieldError[];
  /** For `workspace_required`: the workspaces to choose from. */
  workspaces: TrackerWorkspaceChoice[];

  constructor(init: {
    status: number;
    code: ProblemCode;
    title: string;
    detail: string;
    requestId?: string | undefined;
    errors?: TrackerFieldError[];
    workspaces?: TrackerWorkspaceChoice[];
  }) {
    super(init.detail ? `${init.title}: ${init.detail}` : init.title);
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.errors = init.errors ?? [];
    this.workspaces = init.workspaces ?? [];
  }

  /**
   * Builds the error for a non-2xx response from its parsed body (a problem object, or text for anything
   * else). Useful with `tracker.raw`, which returns errors instead of throwing.
   *
   * @example
   * const { data, error, response } = await tracker.raw.GET("/users");
   * if (!response.ok) throw TrackerError.fromResponse(response, error);
   */
  static fromResponse(response: Response, body: unknown): TrackerError {
    const headerId = response.headers.get("x-request-id") ?? undefined;
    if (isProblem(body)) {
      const status = typeof body.status === "number" ? body.status : response.status;
      return new TrackerError({
        status,
        code: KNOWN_CODES.has(body.code) ? (body.code as ProblemCode) : codeForStatus(status),
        title: typeof body.title === "string" ? body.title : response.statusText,
        detail: typeof body.detail === "string" ? body.detail : "",
        requestId: typeof body.requestId === "string" ? body.requestId : headerId,
        errors: Array.isArray(body.errors) ? (body.errors as TrackerFieldError[]) : [],
        workspaces: Array.isArray(body.workspaces) ? (body.workspaces as TrackerWorkspaceChoice[]) : [],
      });
    }
    const text = typeof body === "string" ? body.trim() : body === undefined ? "" : JSON.stringify(body);
    const title = response.statusText || `HTTP ${response.status}`;
    return new TrackerError({
      status: response.status,
      code: codeForStatus(response.status),
      title,
      detail: text
        ? `The server answered ${response.status} with a non-problem body: ${text.slice(0, 300)}`
        : "",
      requestId: headerId,
    });
  }
}

function isProblem(body: unknown): body is Record<string, unknown> & { code: string } {
  return typeof body === "object" && body !== null && typeof (body as { code?: unknown }).code === "string";
}

/**
 * The server could not be reached (refused, reset, DNS failure, ...), even after retries. The underlying
 * error is in `cause`.
 *
 * @example
 * try {
 *   await tracker.users.list();
 * } catch (err) {
 *   if (err instanceof TrackerNetworkError) console.error("Is the server running?", err.cause);
 * }
 */
export class TrackerNetworkError extends Error {
  override name = "TrackerNetworkError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * An attempt got no complete answer within the time limit (`timeoutMs`, per attempt), and the call could
 * not be retried (no retries left, or a write without an `Idempotency-Key`). A subclass of
 * `TrackerNetworkError`, so code that handles an unreachable server handles this too.
 *
 * @example
 * try {
 *   await tracker.issues.list({ team: "ENG" }, { timeoutMs: 5_000 });
 * } catch (err) {
 *   if (err instanceof TrackerTimeoutError) console.error(`No answer within ${err.timeoutMs} ms`);
 *   else throw err;
 * }
 */
export class TrackerTimeoutError extends TrackerNetworkError {
  override name = "TrackerTimeoutError";
  /** The time limit of each attempt, in ms. */
  readonly timeoutMs: number;
  /** The HTTP method of the call, e.g. `POST`. */
  readonly method: string;
  /** The URL path of the call, e.g. `/api/v1/issues`. */
  readonly path: string;
  /** How many attempts were made, each timed out or failed. */
  readonly attempts: number;

  constructor(init: { method: string; path: string; timeoutMs: number; attempts: number }) {
    super(
      `${init.method} ${init.path} timed out after ${init.timeoutMs} ms` +
        (init.attempts > 1 ? `, on the last of ${init.attempts} attempts.` : "."),
    );
    this.timeoutMs = init.timeoutMs;
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts;
  }
}
