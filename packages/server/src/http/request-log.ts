import { randomUUID } from "node:crypto";
import type { Context, Middleware } from "koa";
import { isDatabaseUnavailable } from "../db/unavailable.js";
import type { Logger } from "../logger.js";
import {
  HttpProblem,
  Invalid,
  NotFound,
  type ProblemCode,
  problemType,
  ServiceUnavailable,
} from "./problem.js";

/**
 * The outermost step: gives the request its id (`X-Request-Id`, the client's when it is a sane one), writes
 * one structured log line when it is answered, and turns anything thrown, and the router's own 404, 405
 * and 501, into one `application/problem+json` body (the contract's `Problem`).
 */
export function requestLog(logger: Logger): Middleware<{ requestId: string; route?: string }> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get("x-request-id");
    const requestId = /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set("X-Request-Id", requestId);
    try {
      await next();
      const unanswered = unansweredProblem(ctx, ctx.state.route !== undefined);
      if (unanswered) sendProblem(ctx, unanswered, requestId);
    } catch (err) {
      sendProblem(ctx, toProblem(err, logger, requestId), requestId);
    } finally {
      logger.info("request", {
        method: ctx.method,
        route: ctx.state.route ?? ctx.path,
        status: ctx.status,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        requestId,
      });
    }
  };
}

/** The router's answers for what no operation took: a path nobody serves, a method a path does not take. */
function unansweredProblem(ctx: Context, routed: boolean): HttpProblem | undefined {
  if (ctx.status === 404 && ctx.body === undefined)
    return new NotFound(`No route for ${ctx.method} ${ctx.path}.`);
  if (routed) return undefined;
  const problem = (status: 405 | 501, code: ProblemCode, title: string, detail: string) =>
    new HttpProblem(status, code, title, detail);
  if (ctx.status === 405) {
    const allow = ctx.response.get("Allow");
    return problem(
      405,
      "method_not_allowed",
      "Method not allowed",
      `${ctx.method} is not allowed on ${ctx.path}${allow ? `; it takes ${allow}` : ""}.`,
    );
  }
  if (ctx.status === 501)
    return problem(501, "not_implemented", "Not implemented", `The method ${ctx.method} is not supported.`);
  return undefined;
}

/**
 * PostgreSQL's data exceptions that only a request's value can cause (the input is checked before any of
 * them can happen; these are the backstop): text that is not valid for its type, a number or date out of
 * range, a character text cannot hold.
 */
const PG_INVALID_VALUE = new Set(["22P02", "22003", "22008", "22007", "22021", "22P05"]);
const PG_UNIQUE_VIOLATION = "23505";

/** While the database is away, one log line a second at most says so, instead of one per request. */
let unavailableLoggedAt = 0;

/** Maps anything thrown to one problem+json body; never leaks a stack trace or SQL. */
function toProblem(err: unknown, logger: Logger, requestId: string): HttpProblem {
  if (err instanceof HttpProblem) return err;
  if (isDatabaseUnavailable(err)) {
    if (Date.now() - unavailableLoggedAt > 1_000) {
      unavailableLoggedAt = Date.now();
      logger.warn("database unavailable: answering 503", { requestId, error: (err as Error).message });
    }
    return new ServiceUnavailable("The database cannot be reached right now; retry in a moment.");
  }
  const e = err as { status?: number; type?: string; code?: string; expose?: boolean; message?: string };
  if (e.status === 413 || e.type === "entity.too.large") {
    return new HttpProblem(413, "payload_too_large", "Payload too large", "The request body is over 1 MiB.");
  }
  if (e.status === 415) {
    return new HttpProblem(400, "invalid_request", "Invalid request", "Send the body as application/json.");
  }
  if (e.code && PG_INVALID_VALUE.has(e.code)) {
    logger.warn("request value refused by the database", { requestId, code: e.code, error: e.message });
    return new Invalid("A value in the request is not valid for its field.");
  }
  if (e.code === PG_UNIQUE_VIOLATION) {
    return new HttpProblem(
      409,
      "conflict",
      "Conflict",
      "That would duplicate something that must be unique.",
    );
  }
  logger.error("unhandled error", { requestId, error: e.message, stack: (err as Error)?.stack });
  return new HttpProblem(500, "internal_error", "Internal error", "Something went wrong on our side.");
}

function sendProblem(ctx: Context, problem: HttpProblem, requestId: string): void {
  ctx.status = problem.status;
  if (typeof problem.extra.retryAfter === "number") ctx.set("Retry-After", String(problem.extra.retryAfter));
  ctx.type = "application/problem+json";
  ctx.body = {
    type: problemType(problem.code),
    title: problem.title,
    status: problem.status,
    detail: problem.message,
    code: problem.code,
    requestId,
    ...Object.fromEntries(Object.entries(problem.extra).filter(([k]) => k !== "retryAfter")),
  };
}
