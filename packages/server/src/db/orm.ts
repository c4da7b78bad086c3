import { Migrator } from "@mikro-orm/migrations";
import { MikroORM, type Options } from "@mikro-orm/postgresql";
import { entities } from "./entities.js";
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

/** Connects and brings the schema up to date: every start applies pending migrations. */
export async function openOrm(clientUrl: string, overrides: Partial<Options> = {}): Promise<Orm> {
  const orm = await MikroORM.init(ormOptions(clientUrl, overrides));
  await orm.getMigrator().up();
  return orm;
}
