/**
 * Domain errors. Thrown anywhere, turned into one RFC 9457 `application/problem+json` body by
 * `toProblem` in http/request-log.ts. `code` is the stable string clients switch on: one of the contract's `ProblemCode`s,
 * checked at compile time.
 */
import type { components } from "@tracker/sdk/schema";

export type ProblemCode = components["schemas"]["ProblemCode"];

export interface FieldError {
  /** Where in the request: see {@link fieldPath}. */
  path: string;
  message: string;
}

/**
 * A field's place in the request as the contract's problem body gives `errors[].path`: a JSON Pointer
 * prefixed by the request part (`/body/title`, `/query/limit`, `/path/identifier`, `/header/…`).
 */
export function fieldPath(
  part: "body" | "query" | "path" | "header",
  ...segments: (string | number)[]
): string {
  return [part, ...segments].map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** A problem's `type`: `urn:tracker:problem:<code>`, as the contract's `Problem` schema gives it. */
export function problemType(code: ProblemCode): string {
  return `urn:tracker:problem:${code}`;
}

export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    /** One of the contract's `ProblemCode`s: what clients switch on. */
    readonly code: ProblemCode,
    readonly title: string,
    detail?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail ?? title);
  }
}

/**
 * Runs `work`, answering a unique violation of one of `constraints` (by constraint or index name) with that
 * constraint's problem. The database decides, so two concurrent writes of one name cannot both win and
 * the loser gets the contract's 409, never a 500.
 */
export async function guardUnique<T>(
  work: () => Promise<T>,
  constraints: Record<string, () => HttpProblem>,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const e = err as { code?: string; constraint?: string };
    const problem = e.code === "23505" && e.constraint ? constraints[e.constraint] : undefined;
    if (problem) throw problem();
    throw err;
  }
}

export class Invalid extends HttpProblem {
  constructor(detail: string, errors: FieldError[] = []) {
    super(400, "invalid_request", "Invalid request", detail, errors.length ? { errors } : {});
  }
}

export class Unauthenticated extends HttpProblem {
  constructor(detail = "Send a valid API key as 'Authorization: Bearer <key>'.") {
    super(401, "unauthenticated", "Unauthenticated", detail);
  }
}

/** A key (or access token) past its expiry: the contract's 401 `key_expired`. */
export class KeyExpired extends HttpProblem {
  constructor(detail = "The API key has expired; create a new one (or sign in again).") {
    super(401, "key_expired", "Key expired", detail);
  }
}

export class Forbidden extends HttpProblem {
  constructor(
    code: Extract<
      ProblemCode,
      "forbidden" | "workspace_forbidden" | "admin_required" | "insufficient_access"
    >,
    detail: string,
  ) {
    super(
      403,
      code,
      code === "admin_required"
        ? "Admin required"
        : code === "insufficient_access"
          ? "Insufficient access"
          : "Forbidden",
      detail,
    );
  }
}

export class NotFound extends HttpProblem {
  constructor(detail = "Not found.") {
    super(404, "not_found", "Not found", detail);
  }
}

export class Conflict extends HttpProblem {
  constructor(code: ProblemCode, detail: string) {
    super(409, code, "Conflict", detail);
  }
}

export class Gone extends HttpProblem {
  constructor(code: ProblemCode, detail: string) {
    super(410, code, "Gone", detail);
  }
}

export class WorkspaceRequired extends HttpProblem {
  constructor(workspaces: { id: string; slug: string; name: string }[]) {
    super(
      400,
      "workspace_required",
      "Workspace required",
      "This key reaches several workspaces: name one with the X-Service-Workspace header or the workspace query parameter.",
      { workspaces },
    );
  }
}

export class NotImplemented extends HttpProblem {
  constructor(operationId: string) {
    super(
      501,
      "not_implemented",
      "Not implemented",
      `Operation ${operationId} is in the contract but not built yet.`,
    );
  }
}

/**
 * 503 `service_unavailable` with `Retry-After`: the database cannot be reached (it is restarting, or a
 * failover is under way), or this instance is shutting down. Nothing was changed; the contract's
 * "Availability" says a client may resend (a write with its `Idempotency-Key`).
 */
export class ServiceUnavailable extends HttpProblem {
  constructor(detail: string, retryAfter = 1) {
    super(503, "service_unavailable", "Service unavailable", detail, { retryAfter });
  }
}
