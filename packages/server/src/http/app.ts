import { randomUUID } from "node:crypto";
import Router from "@koa/router";
import type { MikroORM } from "@mikro-orm/postgresql";
import Koa, { type Context } from "koa";
import { HttpMethodEnum, koaBody } from "koa-body";
import type { Config } from "../config.js";
import type { DatabaseState } from "../db/embedded-postgres.js";
import { isDatabaseUnavailable } from "../db/unavailable.js";
import type { Logger } from "../logger.js";
import { authorizeOperation } from "../rules/operations.js";
import { authenticateHash, resolveWorkspace, tokenHashOf } from "./auth.js";
import { CallerCache } from "./caller-cache.js";
import {
  type Contract,
  fieldErrors,
  type OperationSpec,
  unstorableInputErrors,
  WORKSPACE_HEADER,
} from "./contract.js";
import { corsMiddleware } from "./cors.js";
import { renderDocs } from "./docs.js";
import { type HandlerEntry, JsonText, type RequestScope } from "./handler.js";
import {
  AnsweredMeanwhile,
  claimKey,
  idempotencyKeyOf,
  REPLAYED_HEADER,
  recordAnswer,
  requestFingerprint,
  type StoredAnswer,
  takesIdempotencyKey,
} from "./idempotency.js";
import {
  HttpProblem,
  Invalid,
  NotFound,
  NotImplemented,
  problemType,
  ServiceUnavailable,
} from "./problem.js";
import { RateLimiter } from "./rate-limit.js";
import { requestEntityManager } from "./request-em.js";
import { webMiddleware } from "./web.js";

export const API_PREFIX = "/api/v1";

export interface AppDeps {
  orm: MikroORM;
  contract: Contract;
  config: Config;
  logger: Logger;
  handlers: HandlerEntry[];
  /** What `GET /health` and the drain step read; the server sets it as it starts and stops. */
  lifecycle?: Lifecycle;
}

/**
 * The instance's state beyond its database connection: whether it is draining (SIGTERM: in-flight requests
 * finish, new ones get 503), and the embedded database's supervisor state when there is one.
 */
export interface Lifecycle {
  draining: boolean;
  /** Requests being answered now (an event stream counts until it is open). */
  inFlight: number;
  embeddedDatabase?: () => DatabaseState;
}

interface State {
  requestId: string;
  route?: string;
}

/**
 * PostgreSQL's data exceptions that only a request's value can cause (the input is checked before any of
 * them can happen; these are the backstop): text that is not valid for its type, a number or date out of
 * range, a character text cannot hold.
 */
const PG_INVALID_VALUE = new Set(["22P02", "22003", "22008", "22007", "22021", "22P05"]);
const PG_UNIQUE_VIOLATION = "23505";
/**
 * A row the operation refers to was deleted by a concurrent transaction after the operation looked it up
 * (a cycle deleted while an issue is being put in it, a team deleted while an issue is created in it). Run
 * again, the operation looks it up afresh and answers as for anything that does not exist.
 */
const PG_FOREIGN_KEY_VIOLATION = "23503";
/**
 * PostgreSQL's "try again": the victim of a deadlock, a serialization failure, or the foreign key violation
 * above. Its transaction was rolled back whole, so the operation is run again (a few times, after a short
 * random pause) instead of failing.
 * Deadlocks happen between writes to related rows taken in different orders, e.g. two issues that block
 * each other changing state at once (each adjusts the other's counters).
 */
const PG_RETRYABLE = new Set(["40P01", "40001", PG_FOREIGN_KEY_VIOLATION]);
const RETRY_ATTEMPTS = 4;

async function retryingConflicts<T>(run: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt >= RETRY_ATTEMPTS || !code || !PG_RETRYABLE.has(code)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 20));
    }
  }
}

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

/**
 * The query string's parameters: a name given once is a string, repeated an array (as Koa's `ctx.query`).
 * Built by assignment, key by key: the contract's validator reads such an object several times faster
 * than Koa's or a spread copy of either (bench/README.md, "The floor"). `__proto__` is no parameter of
 * the contract, and as an ordinary key it would set the object's prototype: it is left out.
 */
function queryOf(querystring: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (!querystring) return query;
  for (const [name, value] of new URLSearchParams(querystring)) {
    if (name === "__proto__") continue;
    const prior = Object.hasOwn(query, name) ? query[name] : undefined;
    query[name] =
      prior === undefined ? value : typeof prior === "string" ? [prior, value] : [...prior, value];
  }
  return query;
}

/** Koa's `:param` syntax for a contract path. */
function koaPath(p: string): string {
  return p.replace(/\{([^}]+)\}/g, ":$1");
}

export function createApp(deps: AppDeps): Koa<State> {
  const { orm, contract, config, logger } = deps;
  const app = new Koa<State>();
  app.proxy = true;
  const handlers = new Map(deps.handlers.map((h) => [h.operationId as string, h]));
  for (const h of deps.handlers)
    if (h.confirmsCaller && contract.operation(h.operationId).method !== "get")
      throw new Error(`${h.operationId}: only reads may confirm a cached caller`);
  const limiter = new RateLimiter(config.rateLimitPerMinute);
  const lifecycle: Lifecycle = deps.lifecycle ?? { draining: false, inFlight: 0 };
  const callers = new CallerCache();

  // Request id, one structured log line per request, and the problem mapping, outermost.
  app.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get("x-request-id");
    const requestId = /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set("X-Request-Id", requestId);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        sendProblem(ctx, new NotFound(`No route for ${ctx.method} ${ctx.path}.`), requestId);
      } else if (ctx.status === 405 && !ctx.state.route) {
        // The router's own answer for a path that exists without this method: a problem like any other.
        const allow = ctx.response.get("Allow");
        sendProblem(
          ctx,
          new HttpProblem(
            405,
            "method_not_allowed",
            "Method not allowed",
            `${ctx.method} is not allowed on ${ctx.path}${allow ? `; it takes ${allow}` : ""}.`,
          ),
          requestId,
        );
      } else if (ctx.status === 501 && !ctx.state.route) {
        sendProblem(
          ctx,
          new HttpProblem(
            501,
            "not_implemented",
            "Not implemented",
            `The method ${ctx.method} is not supported.`,
          ),
          requestId,
        );
      }
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
  });

  // Before the body parser: a preflight carries no body, and every answer (problems too) gets its headers.
  app.use(corsMiddleware(config.corsOrigins));

  // Draining (SIGTERM): what is running finishes, a new request is turned away with 503 and its connection
  // closed, so a client or balancer resends it to another instance. `/health` says `draining` itself.
  app.use(async (ctx, next) => {
    if (lifecycle.draining && ctx.path !== "/health") {
      ctx.set("Connection", "close");
      throw new ServiceUnavailable("This server is shutting down; retry, and another instance will answer.");
    }
    lifecycle.inFlight++;
    try {
      await next();
    } finally {
      lifecycle.inFlight--;
    }
  });

  const parseBody = koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: "1mb",
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  });
  // The body parser's failures are the client's: bad JSON is 400, an oversized body 413.
  app.use(async (ctx, next) => {
    let parsed = false;
    try {
      await parseBody(ctx, async () => {
        parsed = true;
      });
    } catch (err) {
      const e = err as { status?: number; type?: string };
      if (e.status === 413 || e.type === "entity.too.large") throw err;
      throw new Invalid("The request body is not valid JSON.");
    }
    if (parsed) await next();
  });

  const router = new Router<State>();

  router.get("/health", async (ctx) => {
    ctx.state.route = "/health";
    const body = await health();
    ctx.status = body.status === "ok" ? 200 : 503;
    ctx.body = body;
  });

  /**
   * The contract's `ServiceHealth`: `draining` once shutdown began (a balancer stops sending here), the
   * embedded database's supervisor state while it restarts (`recovering`), else whether a statement runs.
   */
  async function health(): Promise<{
    status: "ok" | "degraded" | "draining";
    database: "up" | "down" | "recovering";
  }> {
    if (lifecycle.embeddedDatabase?.() === "recovering")
      return { status: lifecycle.draining ? "draining" : "degraded", database: "recovering" };
    let up = false;
    try {
      await orm.em.getConnection().execute("select 1");
      up = true;
    } catch {
      up = false;
    }
    return { status: lifecycle.draining ? "draining" : up ? "ok" : "degraded", database: up ? "up" : "down" };
  }

  const documentJson = JSON.stringify(contract.document);
  router.get(`${API_PREFIX}/openapi.json`, (ctx) => {
    ctx.state.route = `${API_PREFIX}/openapi.json`;
    ctx.type = "application/json";
    ctx.body = documentJson;
  });
  const docsHtml = renderDocs(contract.document);
  router.get("/docs", (ctx) => {
    ctx.state.route = "/docs";
    ctx.type = "text/html; charset=utf-8";
    ctx.body = docsHtml;
  });

  // Static paths before parameterised ones, so `/teams/all` is never taken for a team key.
  const ops = [...contract.operations]
    .filter((op) => !op.unversioned)
    .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  // One router per first path segment (`/issues…`, `/teams…`): a router tests the pattern of every route
  // it holds on each request, so a request is matched against its resource's few routes, not the whole
  // contract's hundred (bench/README.md, "The floor").
  const resourceRouters = new Map<string, Router<State>>();
  for (const op of ops) {
    const resource = op.path.split("/")[1]!;
    let resourceRouter = resourceRouters.get(resource);
    if (!resourceRouter) {
      resourceRouter = new Router<State>();
      resourceRouters.set(resource, resourceRouter);
    }
    const route = `${API_PREFIX}${op.path}`;
    resourceRouter[op.method](koaPath(route), async (ctx) => {
      ctx.state.route = route;
      await runOperation(ctx, op, handlers.get(op.operationId));
    });
  }

  /**
   * Authenticates, resolves the workspace, validates the input and runs the handler. A read that confirms
   * its caller in band may take the caller from the cache (`caller-cache.ts`); unless one of its
   * statements then saw the version that caller was read at, it is answered again with the key read
   * afresh (`fresh`), and that answer is the one sent.
   */
  async function runOperation(
    ctx: Context,
    op: OperationSpec,
    entry: HandlerEntry | undefined,
    fresh = false,
  ) {
    const em = requestEntityManager(orm);
    const scope: RequestScope = {
      em,
      requestId: ctx.state.requestId,
      caller: null,
      workspace: null,
      config,
      logger,
      koa: ctx,
    };
    let tokenHash: string | undefined;
    if (op.authenticated) {
      tokenHash = tokenHashOf(ctx.get("authorization") || undefined);
      const cached = entry?.confirmsCaller && !fresh ? callers.get(tokenHash) : undefined;
      if (cached) {
        scope.caller = cached.caller;
        scope.callerCheck = { epoch: cached.epoch, confirmed: false, changed: false };
      } else {
        const read = await authenticateHash(em, tokenHash);
        scope.caller = read.caller;
        if (entry?.confirmsCaller) callers.set(tokenHash, read.caller, read.epoch);
      }
      // A request answered again is still one request.
      if (!fresh) limiter.take(scope.caller.keyId);
    }
    if (!scope.callerCheck) return runAuthenticated(ctx, op, entry, scope);
    const check = scope.callerCheck;
    let failed = false;
    let error: unknown;
    try {
      await runAuthenticated(ctx, op, entry, scope);
    } catch (err) {
      failed = true;
      error = err;
    }
    if (check.confirmed && !check.changed) {
      if (failed) throw error;
      return;
    }
    // Not confirmed: the key, its owner or their memberships may have changed since it was cached.
    callers.delete(tokenHash!);
    ctx.remove(WORKSPACE_HEADER);
    return runOperation(ctx, op, entry, true);
  }

  async function runAuthenticated(
    ctx: Context,
    op: OperationSpec,
    entry: HandlerEntry | undefined,
    scope: RequestScope,
  ) {
    const handler = entry?.handler;
    // The handler's copy: the comma lists are split and the validator coerces and fills defaults in place.
    const query: Record<string, unknown> = queryOf(ctx.querystring);
    if (op.workspaceScoped && scope.caller) {
      const q = query.workspace;
      scope.workspace = resolveWorkspace(
        scope.caller,
        ctx.get(WORKSPACE_HEADER) || undefined,
        Array.isArray(q) ? q[0] : q || undefined,
      );
      ctx.set(WORKSPACE_HEADER, scope.workspace.slug);
    }

    // Not built yet: say so before judging the input, which the operation may not even read.
    if (!handler) throw new NotImplemented(op.operationId);
    // Outside development mode a development-only operation does not exist, as far as callers can tell.
    if (entry?.devOnly && config.nodeEnv !== "development")
      throw new NotFound(`No route for ${ctx.method} ${ctx.path}.`);

    const params = { ...ctx.params };
    const unstorable = unstorableInputErrors({ path: params, query, body: ctx.request.body });
    // A refusal of the body is placed the operation's way, if it has one (a batch names the item).
    const refuse = (problem: Invalid) => entry?.placeInvalid?.(problem, ctx.request.body) ?? problem;
    if (unstorable.length)
      throw refuse(new Invalid("The request holds a value that cannot be stored: see errors.", unstorable));
    if (!op.validatePath(params))
      throw new Invalid("Invalid path parameter.", fieldErrors("path", op.validatePath.errors));
    // Comma-separated lists (`special=overdue,blocked`) are arrays in the contract (style form, explode false).
    for (const name of op.commaListParams) {
      const v = query[name];
      if (typeof v === "string")
        query[name] = v
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean);
      else if (Array.isArray(v))
        query[name] = v
          .flatMap((x) => String(x).split(","))
          .map((x) => x.trim())
          .filter(Boolean);
    }
    if (!op.validateQuery(query))
      throw new Invalid("Invalid query parameter.", fieldErrors("query", op.validateQuery.errors));
    let body: unknown;
    if (op.validateBody) {
      body = ctx.request.body ?? {};
      if (!op.validateBody(body))
        throw refuse(new Invalid("Invalid request body.", fieldErrors("body", op.validateBody.errors)));
    }
    // Who may do what (rules/permissions.ts): the part of the operation's rule that needs no subject.
    if (scope.caller)
      authorizeOperation({ caller: scope.caller, workspace: scope.workspace }, op.operationId, {
        query,
        body,
      });
    const input = { body, params, query } as never;
    const idempotencyKey = takesIdempotencyKey(op) ? idempotencyKeyOf(ctx) : undefined;
    if (idempotencyKey && scope.caller) {
      const answer = await runIdempotent(ctx, scope, handler, input, scope.caller.keyId, idempotencyKey);
      ctx.status = answer.status;
      ctx.type = "application/json";
      ctx.body = answer.body;
      return;
    }

    const result = (await retryingConflicts((attempt) =>
      // A fresh unit of work for each attempt: nothing of the rolled-back one carries over.
      handler(attempt === 1 ? scope : { ...scope, em: orm.em.fork() }, input),
    )) as { status: number; body: unknown };
    // The event stream wrote its own response (ctx.respond is off): leave status and body alone.
    if (ctx.respond === false) return;
    ctx.status = result.status;
    if (result.body instanceof JsonText) {
      ctx.type = "application/json";
      ctx.body = result.body.text;
    } else ctx.body = result.body;
  }

  /**
   * Runs a write sent with an `Idempotency-Key` in one transaction with its record (the contract's
   * "Idempotent writes"): the handler's own transactions become savepoints of it, so the work and the stored
   * answer commit or roll back together. A repeat gets the stored answer, marked as replayed.
   */
  async function runIdempotent(
    ctx: Context,
    scope: RequestScope,
    handler: HandlerEntry["handler"],
    input: never,
    apiKeyId: string,
    key: string,
  ): Promise<StoredAnswer> {
    const fingerprint = requestFingerprint(ctx, scope.workspace?.id, ctx.request.body);
    for (let pass = 1; ; pass++) {
      try {
        const outcome = await retryingConflicts(() =>
          orm.em.fork().transactional(async (em) => {
            const stored = await claimKey(em, apiKeyId, key, fingerprint);
            if (stored) return { stored, replayed: true };
            const result = (await handler({ ...scope, em }, input)) as { status: number; body: unknown };
            const answer: StoredAnswer = {
              status: result.status,
              workspaceSlug: scope.workspace?.slug ?? null,
              body: result.body instanceof JsonText ? result.body.text : JSON.stringify(result.body),
            };
            await recordAnswer(em, apiKeyId, key, fingerprint, answer);
            return { stored: answer, replayed: false };
          }),
        );
        if (outcome.replayed) {
          ctx.set(REPLAYED_HEADER, "true");
          if (outcome.stored.workspaceSlug) ctx.set(WORKSPACE_HEADER, outcome.stored.workspaceSlug);
        }
        return outcome.stored;
      } catch (err) {
        // A repeat committed first: this pass rolled back, the next one finds and replays its answer.
        if (err instanceof AnsweredMeanwhile && pass === 1) continue;
        throw err;
      }
    }
  }

  /** A router's routes, then its answer for a path it knows without the method (`app.use` of both, in one). */
  const routing = (r: Router<State>): Koa.Middleware<State> => {
    const routes = r.routes();
    const allowedMethods = r.allowedMethods();
    // The router's middleware types its context with the `params` and `router` it adds itself.
    return (ctx, next) =>
      routes(ctx as Parameters<typeof routes>[0], () =>
        allowedMethods(ctx as Parameters<typeof allowedMethods>[0], next),
      );
  };
  const byResource = new Map([...resourceRouters].map(([resource, r]) => [resource, routing(r)]));
  const others = routing(router);
  app.use((ctx, next) => {
    // Lowercased: the routers match paths regardless of case.
    const path = ctx.path.toLowerCase();
    const resource = path.startsWith(`${API_PREFIX}/`)
      ? path.slice(API_PREFIX.length + 1).split("/", 1)[0]!
      : "";
    return (byResource.get(resource) ?? others)(ctx, next);
  });
  // The web board at `/`, for what no API route took.
  app.use(webMiddleware());
  return app;
}
