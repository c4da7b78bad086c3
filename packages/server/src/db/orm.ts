import { Migrator } from "@mikro-orm/migrations";
import { MikroORM, type Options } from "@mikro-orm/postgresql";
import pg from "pg";
import { entities } from "../entities.js";
import { migrationsList } from "./migrations/index.js";

export type Orm = MikroORM;

export function ormOptions(clientUrl: string, overrides: Partial<Options> = {}): Options {
  return {
    clientUrl,
    entities,
    extensions: [Migrator],
    debug: false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
    pool: { min: 0, max: 20 },
    driverOptions: {
      // knex reports every pooled connection the database dropped, one stderr line each ("Connection Error:
      // …"); the pool replaces them, and the app logs the outage itself (once a second at most).
      log: { warn: (message: string) => /^Connection Error:/.test(message) || console.warn(message) },
    },
    migrations: {
      migrationsList,
      tableName: "mikro_orm_migrations",
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    ...overrides,
  };
}

/** Any constant will do; it only has to be the same for every instance. */
const MIGRATION_LOCK = 7_240_511;

/**
 * Connects and brings the schema up to date: every start applies pending migrations. Instances starting
 * together against one database take turns under an advisory lock, so each migration runs once.
 */
export async function openOrm(clientUrl: string, overrides: Partial<Options> = {}): Promise<Orm> {
  const orm = await MikroORM.init(ormOptions(clientUrl, overrides));
  const lock = new pg.Client({ connectionString: clientUrl });
  try {
    await lock.connect();
    await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await orm.getMigrator().up();
  } catch (err) {
    await orm.close(true);
    throw err;
  } finally {
    await lock.end().catch(() => undefined);
  }
  return orm;
}

/** Whether the database answers a statement now, on the ORM's own connections (`GET /health`). */
export async function databaseAnswers(orm: Orm): Promise<boolean> {
  try {
    await orm.em.getConnection().execute("select 1");
    return true;
  } catch {
    return false;
  }
}
