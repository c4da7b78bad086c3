import type { Middleware } from "koa";
import { HttpProblem } from "../http/problem.js";
import { RateLimiter, type RateLimiterOptions } from "../http/rate-limit.js";
import { OAUTH_PREFIX } from "./provider.js";
import type { OAuthServer } from "./server.js";

/** Dynamic registrations, and posts to the device pages, from one address: a minute's worth, and a burst. */
const OPEN_PER_MINUTE = 30;
const OPEN_BURST = 20;

/**
 * The provider's endpoints under `/oauth`, with the methods each answers (HEAD with GET, OPTIONS for CORS
 * preflights): anything else is no endpoint, and gets the server's own 404 problem rather than the
 * provider's plain-text one.
 */
const PROVIDER_ROUTES: [RegExp, readonly string[]][] = [
  [/^\/auth(\/[\w-]+)?$/, ["GET"]],
  [/^\/token(\/(introspection|revocation))?$/, ["POST"]],
  [/^\/reg$/, ["POST"]],
  [/^\/reg\/[^/]+$/, ["GET"]],
  [/^\/device\/auth$/, ["POST"]],
  [/^\/device$/, ["GET", "POST"]],
  [/^\/device\/[\w-]+$/, ["GET"]],
  [/^\/jwks$/, ["GET"]],
  [/^\/request$/, ["POST"]],
  [/^\/\.well-known\/(openid-configuration|oauth-authorization-server)$/, ["GET"]],
];

/** Whether the provider answers this method at this path (inside `/oauth`, without the query). */
function providerAnswers(method: string, path: string): boolean {
  const route = PROVIDER_ROUTES.find(([pattern]) => pattern.test(path));
  if (!route) return false;
  return method === "OPTIONS" || route[1].includes(method === "HEAD" ? "GET" : method);
}

/**
 * `oidc-provider` mounted in the server's Koa app: everything under `/oauth` (but the consent screen's own
 * endpoints, `oauth/consent.ts`), and the authorization server metadata at the server's root, where RFC
 * 8414 puts it for an issuer without a path (`/.well-known/oauth-authorization-server`; also
 * `/.well-known/openid-configuration`). Before the body parser: the provider reads its own bodies.
 * `limits` shares the limit on open endpoints between instances (`http/rate-limit.ts`).
 */
export function mountOAuth(
  oauth: OAuthServer,
  limits: Pick<RateLimiterOptions, "shared" | "onSyncError"> = {},
): Middleware {
  // Registration and the device page answer anyone, so each client address is limited on them: enough for
  // every app a person connects, not for filling the store or guessing user codes. The address is the
  // client's, as the trusted proxies tell it (`http/client-address.ts`).
  const open = new RateLimiter(OPEN_PER_MINUTE, { burst: OPEN_BURST, ...limits });
  return async (ctx, next) => {
    const path = ctx.path;
    let inner: string | undefined;
    if (path === "/.well-known/oauth-authorization-server" || path === "/.well-known/openid-configuration")
      inner = "/.well-known/openid-configuration";
    else if (path.startsWith(`${OAUTH_PREFIX}/interaction/`)) return next();
    else if (
      path.startsWith(`${OAUTH_PREFIX}/`) &&
      providerAnswers(ctx.method, path.slice(OAUTH_PREFIX.length))
    )
      inner = ctx.url.slice(OAUTH_PREFIX.length);
    // Anything else under /oauth is no endpoint: the server's own 404 problem, as for any unknown path.
    if (inner === undefined) return next();
    const limited = ctx.method === "POST" ? /^\/(reg|device)(\/|\?|$)/.exec(inner)?.[1] : undefined;
    if (limited) open.take(`${limited} ${ctx.ip}`, "This address");
    const provider = oauth.provider;
    if (!provider)
      throw new HttpProblem(503, "service_unavailable", "Starting", "The OAuth server is starting.");
    const req = ctx.req as typeof ctx.req & { originalUrl?: string };
    // The provider finds its mount path as the part of `originalUrl` before `url`: `/oauth`.
    req.originalUrl = inner === "/.well-known/openid-configuration" ? `${OAUTH_PREFIX}${inner}` : ctx.url;
    req.url = inner;
    ctx.respond = false;
    ctx.state.route = `${OAUTH_PREFIX}/*`;
    await provider.callback()(req, ctx.res);
  };
}
