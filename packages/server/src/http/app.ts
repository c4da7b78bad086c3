import type { MikroORM } from "@mikro-orm/postgresql";
import Koa from "koa";
import compress from "koa-compress";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { ssoSignInRoutes } from "../modules/sso/sso-sign-in.js";
import { consentRoutes } from "../oauth/consent.js";
import { mountOAuth } from "../oauth/mount.js";
import { OAuthServer } from "../oauth/server.js";
import { authenticate } from "./authenticate.js";
import { authorize } from "./authorize.js";
import { parseBody } from "./body.js";
import { CallerCache } from "./caller-cache.js";
import { clientAddress, compileTrust } from "./client-address.js";
import { conditional } from "./conditional.js";
import type { Contract } from "./contract.js";
import { corsMiddleware } from "./cors.js";
import { drain, type Lifecycle } from "./drain.js";
import type { HandlerEntry } from "./handler.js";
import { idempotent } from "./idempotency.js";
import { RateLimiter } from "./rate-limit.js";
import { sharedBuckets } from "./rate-limit.query.js";
import { requestLog } from "./request-log.js";
import { type RouteState, routes } from "./routes.js";
import { runHandler } from "./run-handler.js";
import { securityHeaders } from "./security-headers.js";
import { validate } from "./validate.js";
import { webMiddleware } from "./web.js";
import { workspace } from "./workspace.js";

export type { Lifecycle } from "./drain.js";
export { API_PREFIX } from "./routes.js";

export interface AppDeps {
  orm: MikroORM;
  contract: Contract;
  config: Config;
  logger: Logger;
  handlers: HandlerEntry[];
  /** What `GET /health` and the drain step read; the server sets it as it starts and stops. */
  lifecycle?: Lifecycle;
  /** The OAuth authorization server (`oauth/`); its issuer is set once the server listens. */
  oauth?: OAuthServer;
}

/**
 * The server's request pipeline, in the order a request meets it: each step is a file of `http/` named
 * for what it does. Every request passes the first six; an operation of the contract then runs its own
 * steps, ending with its handler (`handlers.ts` lists them).
 */
export function createApp(deps: AppDeps): Koa<RouteState> {
  const { orm, config, logger } = deps;
  const lifecycle: Lifecycle = deps.lifecycle ?? { draining: false, inFlight: 0 };
  const oauth = deps.oauth ?? new OAuthServer(orm, config.oauthResources);
  const app = new Koa<RouteState>();
  // Koa reads X-Forwarded-For, -Proto and -Host, which the client-address step below has left only when a
  // trusted proxy (TRACKER_TRUSTED_PROXIES) sent them.
  app.proxy = true;
  // Errors after the answer began (a client gone while a compressed body still streams) reach Koa's
  // `error` event, which would print them: a client leaving is no fault of the server's, the rest is logged.
  app.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "ERR_STREAM_PREMATURE_CLOSE" || err.code === "ECONNRESET" || err.code === "EPIPE")
      return;
    logger.error("http: an answer failed after it began", { error: err.message, code: err.code });
  });
  // Who is calling, before anything reads the address or the forwarded headers.
  app.use(clientAddress(compileTrust(config.trustedProxies)));
  // nosniff on every answer (the contract's `downloadAttachment`), HSTS over https, and the pages'
  // Content-Security-Policy and framing headers, also on the pages the OAuth provider writes itself.
  app.use(securityHeaders());
  // Request id, one log line, and anything thrown as one problem body.
  app.use(requestLog(logger));
  // Before the body parser: a preflight carries no body, and every answer (problems too) gets its headers.
  app.use(corsMiddleware(config.corsOrigins));
  app.use(drain(lifecycle));
  // Answers above 1 KiB in brotli or gzip, as the client asks (the contract's "Compression"); the event
  // stream writes its own response and is never buffered by it.
  app.use(compress({ threshold: 1024 }));
  // The OAuth server's endpoints read their own bodies; the consent screen's are JSON like the API's.
  // Rate limits count across instances, in PostgreSQL (`rate-limit.ts`); a failed sync leaves them local.
  const onSyncError = (err: unknown) =>
    logger.warn("rate limits: sync failed", { error: (err as Error).message });
  app.use(mountOAuth(oauth, { shared: sharedBuckets(orm.em, "oauth"), onSyncError }));
  app.use(parseBody());
  app.use(consentRoutes(oauth, orm));
  // Single sign-on's two browser addresses (redirects, not JSON): `modules/sso/sso-sign-in.ts`.
  app.use(ssoSignInRoutes(orm, config.dataDir, logger));
  const limiter = new RateLimiter(config.rateLimitPerMinute, {
    shared: sharedBuckets(orm.em, "api"),
    onSyncError,
  });
  app.use(
    routes({
      ...deps,
      lifecycle,
      steps: [
        conditional(limiter),
        authenticate({ orm, callers: new CallerCache(), limiter, audiences: () => oauth.audiences() }),
        workspace,
        validate(config),
        authorize,
        idempotent(orm),
        runHandler(orm),
      ],
    }),
  );
  // The web board at `/`, for what no API route took.
  app.use(webMiddleware());
  return app;
}
