import type { MikroORM } from "@mikro-orm/postgresql";
import type { Context } from "koa";
import type { OperationSpec } from "./contract.js";
import type { HandlerEntry, RequestScope } from "./handler.js";
import { requestEntityManager } from "./request-em.js";

/**
 * One call of a contract operation as it passes the operation's steps (`createApp` lists them): each step
 * reads what the ones before it left here and adds its own part.
 */
export interface OperationCall {
  ctx: Context;
  op: OperationSpec;
  /** The operation's handler; absent while it is not built. */
  entry: HandlerEntry | undefined;
  /** The request's scope: its EntityManager, then the caller (authenticate) and workspace (workspace). */
  scope: RequestScope;
  /** The query string's parameters, as `queryOf` reads them; `validate` coerces them in place. */
  query: Record<string, unknown>;
  /** The validated input the handler gets (`validate`). */
  input?: { body: unknown; params: Record<string, string>; query: Record<string, unknown> };
  /** What the handler answered (`run-handler`), or the stored answer a repeat replays (`idempotency`). */
  result?: { status: number; body: unknown };
  /** The handler runs inside the idempotent step's transaction, which that step runs again if need be. */
  inTransaction?: true;
}

/** A new call of `op`: the request's own EntityManager, no caller yet, the query string read. */
export function startCall(
  ctx: Context,
  op: OperationSpec,
  entry: HandlerEntry | undefined,
  scope: Omit<RequestScope, "em" | "caller" | "workspace" | "koa">,
  orm: MikroORM,
): OperationCall {
  return {
    ctx,
    op,
    entry,
    scope: { ...scope, em: requestEntityManager(orm), caller: null, workspace: null, koa: ctx },
    query: queryOf(ctx.querystring),
  };
}

/** The call as new, to be answered afresh from its first step after `authenticate`. */
export function restartCall(call: OperationCall, orm: MikroORM): void {
  const { em: _em, caller: _caller, workspace: _workspace, callerCheck: _check, ...rest } = call.scope;
  call.scope = { ...rest, em: requestEntityManager(orm), caller: null, workspace: null };
  call.query = queryOf(call.ctx.querystring);
  call.input = undefined;
  call.result = undefined;
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

/**
 * A step of an operation: does its part and calls `next` for the rest. A step may call `next` again to
 * answer the rest afresh (authenticate, for a cached caller the request did not confirm; the idempotent
 * step, for a transaction PostgreSQL rolled back to be run again). A step with nothing to do after the
 * rest returns `next()` itself rather than awaiting it: on the reads the bench measures, each async frame
 * is a promise more per request.
 */
export type OperationStep = (call: OperationCall, next: () => Promise<void>) => Promise<void>;

/** The steps as one function, run in order. */
export function operationPipeline(steps: OperationStep[]): (call: OperationCall) => Promise<void> {
  return (call) => {
    const from = (i: number): Promise<void> =>
      i < steps.length ? steps[i]!(call, () => from(i + 1)) : Promise.resolve();
    return from(0);
  };
}
