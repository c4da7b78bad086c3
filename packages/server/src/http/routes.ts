import Router from "@koa/router";
import type { MikroORM } from "@mikro-orm/postgresql";
import type Koa from "koa";
import type { Config } from "../config.js";
import { databaseAnswers } from "../db/orm.js";
import type { Logger } from "../logger.js";
import type { Contract } from "./contract.js";
import { renderDocs } from "./docs.js";
import type { Lifecycle } from "./drain.js";
import { type HandlerEntry, JsonText } from "./handler.js";
import { type OperationStep, operationPipeline, startCall } from "./operation-call.js";

export const API_PREFIX = "/api/v1";

export interface RouteState {
  requestId: string;
  route?: string;
}

interface RoutesDeps {
  orm: MikroORM;
  contract: Contract;
  config: Config;
  logger: Logger;
  lifecycle: Lifecycle;
  handlers: HandlerEntry[];
  /** What every operation of the contract runs, in order, ending with its handler. */
  steps: OperationStep[];
}

/**
 * The step that routes: `/health`, the contract as JSON and its reference at `/docs`, then every operation
 * of the contract under `/api/v1`, each running the operation's steps and answering what they leave.
 */
export function routes(deps: RoutesDeps): Koa.Middleware<RouteState> {
  const { orm, contract, config, logger, lifecycle } = deps;
  const handlers = new Map(deps.handlers.map((h) => [h.operationId as string, h]));
  for (const h of deps.handlers)
    if (h.confirmsCaller && contract.operation(h.operationId).method !== "get")
      throw new Error(`${h.operationId}: only reads may confirm a cached caller`);
  const runOperation = operationPipeline(deps.steps);

  const router = new Router<RouteState>();
  router.get("/health", async (ctx) => {
    ctx.state.route = "/health";
    const body = await health(orm, lifecycle);
    ctx.status = body.status === "ok" ? 200 : 503;
    ctx.body = body;
  });
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
  const resourceRouters = new Map<string, Router<RouteState>>();
  for (const op of ops) {
    const resource = op.path.split("/")[1]!;
    let resourceRouter = resourceRouters.get(resource);
    if (!resourceRouter) {
      resourceRouter = new Router<RouteState>();
      resourceRouters.set(resource, resourceRouter);
    }
    const route = `${API_PREFIX}${op.path}`;
    const entry = handlers.get(op.operationId);
    resourceRouter[op.method](koaPath(route), async (ctx) => {
      ctx.state.route = route;
      const call = startCall(ctx, op, entry, { requestId: ctx.state.requestId, config, logger }, orm);
      await runOperation(call);
      // The event stream wrote its own response (ctx.respond is off): leave status and body alone.
      if (ctx.respond === false) return;
      const result = call.result!;
      ctx.status = result.status;
      if (result.body instanceof JsonText) {
        ctx.type = "application/json";
        ctx.body = result.body.text;
      } else ctx.body = result.body;
    });
  }

  const byResource = new Map([...resourceRouters].map(([resource, r]) => [resource, routing(r)]));
  const others = routing(router);
  return (ctx, next) => {
    // Lowercased: the routers match paths regardless of case.
    const path = ctx.path.toLowerCase();
    const resource = path.startsWith(`${API_PREFIX}/`)
      ? path.slice(API_PREFIX.length + 1).split("/", 1)[0]!
      : "";
    return (byResource.get(resource) ?? others)(ctx, next);
  };
}

/** Koa's `:param` syntax for a contract path. */
function koaPath(p: string): string {
  return p.replace(/\{([^}]+)\}/g, ":$1");
}

/** A router's routes, then its answer for a path it knows without the method (`app.use` of both, in one). */
function routing(r: Router<RouteState>): Koa.Middleware<RouteState> {
  const routes = r.routes();
  const allowedMethods = r.allowedMethods();
  // The router's middleware types its context with the `params` and `router` it adds itself.
  return (ctx, next) =>
    routes(ctx as Parameters<typeof routes>[0], () =>
      allowedMethods(ctx as Parameters<typeof allowedMethods>[0], next),
    );
}

/**
 * The contract's `ServiceHealth`: `draining` once shutdown began (a balancer stops sending here), the
 * embedded database's supervisor state while it restarts (`recovering`), else whether a statement runs.
 */
async function health(
  orm: MikroORM,
  lifecycle: Lifecycle,
): Promise<{ status: "ok" | "degraded" | "draining"; database: "up" | "down" | "recovering" }> {
  if (lifecycle.embeddedDatabase?.() === "recovering")
    return { status: lifecycle.draining ? "draining" : "degraded", database: "recovering" };
  const up = await databaseAnswers(orm);
  return { status: lifecycle.draining ? "draining" : up ? "ok" : "degraded", database: up ? "up" : "down" };
}
