import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Config } from "./config.js";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./db/embedded-postgres.js";
import { type Orm, openOrm } from "./db/orm.js";
import { closeGenericPlanPool } from "./db/sql.js";
import { EventHub } from "./events/event-hub.js";
import { loadEventsConfig } from "./events/events-config.js";
import { allHandlers } from "./handlers.js";
import { createApp } from "./http/app.js";
import { answerClientErrors } from "./http/client-errors.js";
import { Contract } from "./http/contract.js";
import { pruneIdempotentRequests } from "./http/idempotency.js";
import type { Logger } from "./logger.js";
import { pruneSearchRecent } from "./modules/issues/search-recent.js";
import { schedulePrunes } from "./prune-schedule.js";

export interface Database {
  url: string;
  embedded: EmbeddedPostgres | undefined;
  stop(): Promise<void>;
}

/** DATABASE_URL when set; otherwise the embedded PostgreSQL in TRACKER_DATA_DIR. */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: undefined, stop: async () => {} };
  const embedded = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    durable: config.nodeEnv !== "test",
    log: (line) => logger.debug("postgres", { line }),
  });
  logger.info("embedded database started", { dataDir: config.dataDir, port: embedded.port });
  return { url: embedded.url, embedded, stop: () => embedded.stop() };
}

export interface RunningServer {
  url: string;
  orm: Orm;
  server: Server;
  /** The live event stream (GET /events) of this instance. */
  events: EventHub;
  /** Stops accepting, lets in-flight requests finish, then closes the pool. */
  close(): Promise<void>;
}

export async function startHttp(
  config: Config,
  logger: Logger,
  databaseUrl: string,
  contract = Contract.load(),
): Promise<RunningServer> {
  const orm = await openOrm(databaseUrl);
  const app = createApp({ orm, contract, config, logger, handlers: allHandlers });
  const events = new EventHub({ orm, databaseUrl, logger, config: loadEventsConfig() });
  await events.start().catch(async (err) => {
    await orm.close(true);
    throw err;
  });
  EventHub.attach(app, events);
  const stopPrune = schedulePrunes(logger, [
    { name: "search: recent issues", run: () => pruneSearchRecent(orm.em) },
    { name: "idempotency: expired keys", run: () => pruneIdempotentRequests(orm.em) },
  ]);
  const server = app.listen(config.port);
  answerClientErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  }).catch(async (err) => {
    stopPrune();
    await events.stop();
    await orm.close(true);
    throw err;
  });
  keepListening(server, logger);
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    orm,
    server,
    events,
    close() {
      closing ??= (async () => {
        stopPrune();
        // Event streams never finish on their own: end them first so closing does not wait on them.
        await events.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          // Requests still running after 10 s are cut off rather than holding shutdown forever.
          setTimeout(() => server.closeAllConnections(), 10_000).unref();
        });
        await closeGenericPlanPool(orm.em);
        await orm.close(true);
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
