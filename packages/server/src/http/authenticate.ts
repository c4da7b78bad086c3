import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { Context } from "koa";
import { bearerOf, refuseExpired } from "./auth.js";
import { authenticateAccessToken, authenticateHash, authenticateSessionHash } from "./auth.query.js";
import type { CallerCache } from "./caller-cache.js";
import { WORKSPACE_HEADER } from "./contract.js";
import { type OperationCall, type OperationStep, restartCall } from "./operation-call.js";
import type { RateLimiter } from "./rate-limit.js";
import { checkCsrf, sessionHashOf } from "./session.js";

/**
 * The step that says who calls: the key behind `Authorization: Bearer <token>`, its owner and the
 * workspaces it reaches (401 for no key, or one that is unknown or deleted; 401 `key_expired` for one
 * past its expiry, cached or not), or, without that header, the person signed in with the session cookie
 * (`session.ts`; a write with it must pass the CSRF check), then one of the key's (or session's) rate-limit
 * tokens (429 past the budget). Operations with `security: []` pass without either.
 *
 * A read that confirms its caller in band (`handle(..., CONFIRMS_CALLER)`) may take the caller from the
 * server's cache instead of the database (`caller-cache.ts`). Unless one of its statements then saw the
 * version that caller was read at, the rest of the request is answered again with the key read afresh,
 * and that answer is the one sent: the cache changes how many round trips a read takes, never what it
 * answers. A request answered again is still one request for the rate limit.
 */
export function authenticate(deps: {
  orm: MikroORM;
  callers: CallerCache;
  limiter: RateLimiter;
  /** The audiences an OAuth access token may have here: the API and the configured tool servers. */
  audiences: () => ReadonlySet<string>;
}): OperationStep {
  const { orm, callers, limiter } = deps;
  const readBearer = (em: EntityManager, bearer: Credential) => readCredential(em, bearer, deps.audiences());
  return (call, next) => {
    if (!call.op.authenticated) return next();
    const bearer = credentialOf(call.ctx);
    const tokenHash = `${bearer.kind}:${bearer.hash}`;
    const confirms = call.entry?.confirmsCaller === true;
    const cached = confirms ? callers.get(tokenHash) : undefined;
    if (!cached) return readCaller(call, next, bearer, tokenHash, confirms);
    return confirmedOrAgain(call, next, bearer, tokenHash, cached);
  };

  /** The caller read with the key, as for every operation that does not confirm it in band. */
  async function readCaller(
    call: OperationCall,
    next: () => Promise<void>,
    bearer: Credential,
    tokenHash: string,
    confirms: boolean,
  ): Promise<void> {
    const read = await readBearer(call.scope.em, bearer);
    refuseExpired(read.caller);
    call.scope.caller = read.caller;
    if (confirms) callers.set(tokenHash, read.caller, read.epoch);
    limiter.take(read.caller.keyId);
    return next();
  }

  /** A cached caller: the rest, then answered afresh unless one of its statements confirmed the caller. */
  async function confirmedOrAgain(
    call: OperationCall,
    next: () => Promise<void>,
    bearer: Credential,
    tokenHash: string,
    cached: NonNullable<ReturnType<CallerCache["get"]>>,
  ): Promise<void> {
    refuseExpired(cached.caller);
    call.scope.caller = cached.caller;
    const check = { epoch: cached.epoch, confirmed: false, changed: false };
    call.scope.callerCheck = check;
    limiter.take(cached.caller.keyId);
    let failure: { error: unknown } | undefined;
    try {
      await next();
    } catch (error) {
      failure = { error };
    }
    if (check.confirmed && !check.changed) {
      if (failure) throw failure.error;
      return;
    }
    // Not confirmed: the key, its owner or their memberships may have changed since it was cached.
    callers.delete(tokenHash);
    call.ctx.remove(WORKSPACE_HEADER);
    restartCall(call, orm);
    const read = await readBearer(call.scope.em, bearer);
    refuseExpired(read.caller);
    call.scope.caller = read.caller;
    callers.set(tokenHash, read.caller, read.epoch);
    await next();
  }
}

/** What a request proved itself with: a bearer token (`bearerOf`) or a browser's session cookie. */
export type Credential = ReturnType<typeof bearerOf> | { kind: "session"; hash: string };

/**
 * What the request proves itself with: `Authorization: Bearer` (an API key or an OAuth access token), or
 * without that header the session cookie, whose writes must pass the CSRF check (`session.ts`). Neither:
 * 401.
 */
export function credentialOf(ctx: Context): Credential {
  const authorization = ctx.get("authorization") || undefined;
  const sessionHash = authorization ? undefined : sessionHashOf(ctx);
  if (!sessionHash) return bearerOf(authorization);
  checkCsrf(ctx);
  return { kind: "session", hash: sessionHash };
}

/** The caller behind a credential, with its owner, what it reaches and the `auth_epoch` read with it. */
export function readCredential(em: EntityManager, credential: Credential, audiences: ReadonlySet<string>) {
  return credential.kind === "key"
    ? authenticateHash(em, credential.hash)
    : credential.kind === "oauth"
      ? authenticateAccessToken(em, credential.hash, audiences)
      : authenticateSessionHash(em, credential.hash);
}
