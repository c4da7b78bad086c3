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
// page, an empty body) so callers can still switch on `code`.
const CODE_BY_STATUS: Record<number, string> = {
  400: "invalid_request",
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  410: "invite_expired",
  413: "payload_too_large",
  429: "rate_limited",
  500: "internal_error",
  501: "not_implemented",
  502: "service_unavailable",
  503: "service_unavailable",
  504: "service_unavailable",
};

function codeForStatus(status: number): string {
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
  /** Stable problem code, e.g. `not_found`, `invalid_request`, `workspace_required`. */
  code: string;
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
    code: string;
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
      return new TrackerError({
        status: typeof body.status === "number" ? body.status : response.status,
        code: body.code,
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
