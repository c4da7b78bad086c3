import type { Middleware } from "koa";

/** The request headers a browser page may send (the contract's "Browsers (CORS)"). */
const ALLOWED_HEADERS =
  "Authorization, Content-Type, Idempotency-Key, If-None-Match, Last-Event-ID, X-Request-Id, X-Service-Workspace";
const ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE";
/** The response headers a page's script may read. */
const EXPOSED_HEADERS = "X-Request-Id, X-Service-Workspace, Retry-After, Idempotent-Replayed, ETag";
/** How long a browser may cache a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = 600;

/**
 * CORS for the origins a deployment lists: preflights answered with 204, every answer marked for the page
 * that asked. Other origins get no CORS headers at all, so browsers keep the answer from them. Keys travel
 * in `Authorization`, never in cookies, so credentials are not allowed.
 */
export function corsMiddleware(allowed: string[] | "*"): Middleware {
  // No origins listed (the default): nothing to add to any answer.
  if (allowed !== "*" && allowed.length === 0) return (_ctx, next) => next();
  const origins = new Set(allowed === "*" ? [] : allowed);
  const allows = (origin: string) => allowed === "*" || origins.has(origin);
  return async (ctx, next) => {
    const origin = ctx.get("Origin");
    ctx.vary("Origin");
    if (!origin || !allows(origin)) return next();
    ctx.set("Access-Control-Allow-Origin", allowed === "*" ? "*" : origin);
    if (ctx.method === "OPTIONS" && ctx.get("Access-Control-Request-Method")) {
      ctx.set("Access-Control-Allow-Methods", ALLOWED_METHODS);
      ctx.set("Access-Control-Allow-Headers", ALLOWED_HEADERS);
      ctx.set("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE));
      ctx.status = 204;
      return;
    }
    ctx.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    await next();
  };
}
