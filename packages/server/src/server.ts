import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { Config } from "./config.js";
import type { EmbeddedPostgres } from "./db/embedded-postgres.js";
import { type Orm, openOrm } from "./db/orm.js";
import { closeGenericPlanPool } from "./db/sql.js";
import { EventHub } from "./events/event-hub.js";
import { loadEventsConfig } from "./events/events-config.js";
import { allHandlers } from "./handlers.js";
import { createApp, type Lifecycle } from "./http/app.js";
import { answerClientErrors } from "./http/client-errors.js";
import { Contract } from "./http/contract.js";
import { pruneIdempotentRequests } from "./http/idempotency.query.js";
import { pruneRateLimitBuckets } from "./http/rate-limit.query.js";
import type { Logger } from "./logger.js";
import { attachmentStore } from "./modules/attachments/attachment-store.js";
import { sweepOrphanAttachments } from "./modules/attachments/attachment-sweep.js";
import * as codehostQueries from "./modules/codehost/codehost.query.js";
import { pruneSearchRecent } from "./modules/issues/list/search-recent.query.js";
import { NotificationMailer } from "./modules/notifications/notification-mailer.js";
import { pruneSsoLogins } from "./modules/sso/sso.service.js";
import * as webhookQueries from "./modules/webhooks/webhook.query.js";
import { WebhookDispatcher } from "./modules/webhooks/webhook-dispatcher.js";
import { loadWebhooksConfig } from "./modules/webhooks/webhooks-config.js";
import { OAuthServer } from "./oauth/server.js";
import { pruneExpired } from "./oauth/store.query.js";
import { schedulePrunes } from "./prune-schedule.js";

/** How long shutdown waits for the database pools to close before going on without them. */
const POOL_CLOSE_WAIT_MS = 2_000;

export interface RunningServer {
  url: string;
  orm: Orm;
  server: Server;
  /** The live event stream (GET /events) of this instance. */
  events: EventHub;
  /** This instance's notification e-mail (a test sends the daily e-mails with `sendDueDigests`). */
  mailer: NotificationMailer;
  /** Stops accepting, lets in-flight requests finish, then closes the pool. */
  close(): Promise<void>;
}

export async function startHttp(
  config: Config,
  logger: Logger,
  databaseUrl: string,
  contract = Contract.load(),
  embedded?: EmbeddedPostgres,
): Promise<RunningServer> {
  const orm = await openOrm(databaseUrl);
  const lifecycle: Lifecycle = {
    draining: false,
    inFlight: 0,
    ...(embedded ? { embeddedDatabase: () => embedded.state } : {}),
  };
  const oauth = new OAuthServer(orm, config.oauthResources);
  const app = createApp({ orm, contract, config, logger, handlers: allHandlers, lifecycle, oauth });
  const events = new EventHub({ orm, databaseUrl, logger, config: loadEventsConfig() });
  await events.start().catch(async (err) => {
    await orm.close(true);
    throw err;
  });
  EventHub.attach(app, events);
  const stopPrune = schedulePrunes(logger, [
    { name: "search: recent issues", run: () => pruneSearchRecent(orm.em) },
    { name: "idempotency: expired keys", run: () => pruneIdempotentRequests(orm.em) },
    { name: "rate limits: idle buckets", run: () => pruneRateLimitBuckets(orm.em) },
    { name: "attachments: orphan files", run: () => sweepOrphanAttachments(orm.em, attachmentStore(config)) },
    { name: "codehost: old delivery ids", run: () => codehostQueries.pruneDeliveries(orm.em.fork()) },
    { name: "webhooks: finished deliveries", run: () => webhookQueries.pruneDeliveries(orm.em.fork()) },
    { name: "oauth: expired codes and tokens", run: () => pruneExpired(orm.em.fork()) },
    { name: "sso: abandoned sign-ins", run: () => pruneSsoLogins(orm.em.fork()) },
  ]);
  // Outbound webhooks: this instance's share of sending the outbox (modules/webhooks).
  const webhooksConfig = loadWebhooksConfig();
  const webhooks = new WebhookDispatcher({
    orm,
    databaseUrl,
    logger,
    config: webhooksConfig,
    dataDir: config.dataDir,
  });
  if (webhooksConfig.dispatch) await webhooks.start();
  // Notification e-mail: this instance's share of the outbox and of the daily e-mails (modules/notifications).
  let publicUrl = config.publicUrl;
  const mailer = new NotificationMailer({
    orm,
    logger,
    smtpUrl: config.smtpUrl,
    publicUrl: () => publicUrl,
    settings: config.notificationMail,
  });
  mailer.start();
  const server = app.listen(config.port);
  answerClientErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  }).catch(async (err) => {
    stopPrune();
    await webhooks.stop();
    await mailer.stop();
    await events.stop();
    await orm.close(true);
    throw err;
  });
  keepListening(server, logger);
  const { port } = server.address() as AddressInfo;
  // The OAuth issuer and the e-mails' links: the public URL, or this address when the port was chosen at
  // start (PORT=0).
  if (/:0\/?$/.test(config.publicUrl)) publicUrl = `http://127.0.0.1:${port}`;
  await oauth.start(publicUrl);
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    orm,
    server,
    events,
    mailer,
    close() {
      closing ??= (async () => {
        // Draining: new requests get 503 while the ones in flight finish, for at most the drain timeout.
        lifecycle.draining = true;
        stopPrune();
        await webhooks.stop();
        await mailer.stop();
        // Event streams never finish on their own: end them first (with a retry hint) so they hold nothing.
        await events.stop();
        const deadline = Date.now() + config.drainTimeoutMs;
        while (lifecycle.inFlight > 0 && Date.now() < deadline) await sleep(20);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Idle keep-alive connections, and requests still running past the deadline, are cut off.
          server.closeAllConnections();
        });
        // A statement cut off above may still wait in the database (on a lock, say): closing the pools waits
        // for it, so only briefly; stopping the database (or the process's exit) ends the session.
        const pools = Promise.all([closeGenericPlanPool(orm.em), orm.close(true)]);
        pools.catch(() => undefined);
        await Promise.race([pools, sleep(POOL_CLOSE_WAIT_MS)]);
      })();
      return closing;
    },
  };
}

/**
 * A listening server reports a failed accept (the process at its open-files limit: EMFILE, ENFILE) as an
 * `error` event, and an `error` nobody listens to ends the process, with every open event stream. The
 * server keeps listening after one, so it is logged, once a minute at most, with what to raise.
 */
function keepListening(server: Server, logger: Logger): void {
  let lastLogged = 0;
  server.on("error", (err: NodeJS.ErrnoException) => {
    if (Date.now() - lastLogged < 60_000) return;
    lastLogged = Date.now();
    logger.error("http: a connection could not be accepted", {
      code: err.code,
      error: err.message,
      hint:
        err.code === "EMFILE" || err.code === "ENFILE" ? "raise the open-files limit (ulimit -n)" : undefined,
    });
  });
}
