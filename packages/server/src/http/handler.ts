import type { EntityManager } from "@mikro-orm/postgresql";
import type { operations } from "@tracker/sdk/schema";
import type { Context } from "koa";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { Caller, CallerCheck, WorkspaceAccess } from "./auth.js";
import type { HttpProblem, Invalid } from "./problem.js";

export type OperationId = keyof operations;
type Op<K extends OperationId> = operations[K];
type JsonContent<T> = T extends { content: { "application/json": infer B } } ? B : never;

export type RequestBody<K extends OperationId> =
  Op<K> extends { requestBody: infer R }
    ? JsonContent<R>
    : Op<K> extends { requestBody?: infer R }
      ? JsonContent<NonNullable<R>> | undefined
      : undefined;
export type QueryOf<K extends OperationId> = Op<K>["parameters"] extends { query?: infer Q }
  ? NonNullable<Q>
  : Record<string, never>;
export type PathOf<K extends OperationId> = Op<K>["parameters"] extends { path: infer P }
  ? P
  : Record<string, never>;

/**
 * A response body already written as JSON text, standing for a `T`, sent as it is: for the hottest lists,
 * whose rows arrive partly as JSON from the database, so the page is not built as objects to be serialised
 * again. The text must be exactly what `JSON.stringify` of a `T` would give.
 */
export class JsonText<T> {
  declare private readonly of?: T;
  constructor(readonly text: string) {}
}

type SuccessStatus = 200 | 201;
type Responses<K extends OperationId> = Op<K>["responses"];
/** What a handler returns: a success status the contract declares, with exactly that status's body. */
export type HandlerResult<K extends OperationId> = {
  [S in keyof Responses<K> & SuccessStatus]: {
    status: S;
    body: JsonContent<Responses<K>[S]> | JsonText<JsonContent<Responses<K>[S]>>;
  };
}[keyof Responses<K> & SuccessStatus];

/** What every handler gets: its own EntityManager fork, the caller and the resolved workspace. */
export interface RequestScope {
  em: EntityManager;
  requestId: string;
  caller: Caller | null;
  /** Set for operations that act inside a workspace (membership already checked). */
  workspace: WorkspaceAccess | null;
  config: Config;
  logger: Logger;
  koa: Context;
  /**
   * Set when `caller` came from the server's cache instead of the database, for an operation that confirms
   * it in band: its statement selects `AUTH_EPOCH_SQL` and passes the value to `confirmCaller`
   * (`http/caller-cache.ts`).
   */
  callerCheck?: CallerCheck;
}

/** A scope in which the caller is known and a workspace is resolved. */
export interface WorkspaceScope extends RequestScope {
  caller: Caller;
  workspace: WorkspaceAccess;
}

export interface HandlerInput<K extends OperationId> {
  body: RequestBody<K>;
  query: QueryOf<K>;
  params: PathOf<K>;
}

export type Handler<K extends OperationId> = (
  scope: RequestScope,
  input: HandlerInput<K>,
) => Promise<HandlerResult<K>>;

export interface HandlerEntry {
  operationId: OperationId;
  handler: Handler<OperationId>;
  /**
   * A read that confirms a cached caller in its own statement (`http/caller-cache.ts`): it selects
   * `AUTH_EPOCH_SQL` and calls `confirmCaller` with it. Only for `GET` operations: a request whose caller is
   * not confirmed is answered again, so the handler must change nothing.
   */
  confirmsCaller?: boolean;
  /**
   * Places a refusal of the request's input made before the handler runs (the contract's schema, or a
   * value no field can store) the operation's own way: `POST /issues/batch` answers it as the refused
   * item's problem. Given the refusal and the body as sent; returns the problem to answer.
   */
  placeInvalid?: (problem: Invalid, body: unknown) => HttpProblem;
  /** Exists only in development mode: elsewhere it answers 404 like a path no operation takes. */
  devOnly?: boolean;
}

/** Implements one contract operation; request and response are typed from the generated contract types. */
export function handle<K extends OperationId>(
  operationId: K,
  handler: Handler<K>,
  options: Pick<HandlerEntry, "confirmsCaller" | "placeInvalid" | "devOnly"> = {},
): HandlerEntry {
  return { operationId, handler: handler as unknown as Handler<OperationId>, ...options };
}

/**
 * For the hottest reads, whose one statement selects `AUTH_EPOCH_SQL` and passes it to `confirmCaller`:
 * the caller may come from the server's cache and is confirmed by that statement (`http/caller-cache.ts`).
 */
export const CONFIRMS_CALLER = { confirmsCaller: true } as const;

/** Narrows a scope for operations the contract marks as workspace-scoped. */
export function inWorkspace(scope: RequestScope): WorkspaceScope {
  if (!scope.caller || !scope.workspace) throw new Error("operation used outside a workspace");
  return scope as WorkspaceScope;
}

/** The `{ok: true}` body of actions that return nothing else. */
export const OK = { ok: true } as const;
