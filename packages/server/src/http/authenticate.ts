import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
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
  /** An API key (`trk_…`), an OAuth access token or a session, read with its owner and what it reaches. */
  const readBearer = (em: EntityManager, bearer: Credential) =>
    bearer.kind === "key"
      ? authenticateHash(em, bearer.hash)
      : bearer.kind === "oauth"
        ? authenticateAccessToken(em, bearer.hash, deps.audiences())
        : authenticateSessionHash(em, bearer.hash);
  return (call, next) => {
    if (!call.op.authenticated) return next();
    const authorization = call.ctx.get("authorization") || undefined;
    const sessionHash = authorization ? undefined : sessionHashOf(call.ctx);
    if (sessionHash) checkCsrf(call.ctx);
    const bearer: Credential = sessionHash ? { kind: "session", hash: sessionHash } : bearerOf(authorization);
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
type Credential = ReturnType<typeof bearerOf> | { kind: "session"; hash: string };
