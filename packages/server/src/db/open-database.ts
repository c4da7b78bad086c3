import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { type EmbeddedPostgres, type SupervisorEvent, startEmbeddedPostgres } from "./embedded-postgres.js";

/**
 * The database a server or a command (`setup`) works on, opened without the HTTP stack, so a command that
 * only needs the database loads none of it.
 */

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
    onEvent: (event) => logSupervisorEvent(logger, event),
  });
  logger.info("embedded database started", { dataDir: config.dataDir, port: embedded.port });
  return { url: embedded.url, embedded, stop: () => embedded.stop() };
}

/** One log line per thing the embedded database's supervisor does (`db/embedded-postgres.ts`). */
function logSupervisorEvent(logger: Logger, event: SupervisorEvent): void {
  switch (event.kind) {
    case "exited":
      logger.error("embedded database exited unexpectedly; restarting it", { reason: event.reason });
      break;
    case "restarting":
      logger.warn("embedded database: restart attempt", { attempt: event.attempt, delayMs: event.delayMs });
      break;
    case "restart_failed":
      logger.warn("embedded database: restart failed", { attempt: event.attempt, error: event.error });
      break;
    case "recovered":
      logger.info("embedded database is back", { attempt: event.attempt, downMs: event.downMs });
      break;
  }
}
