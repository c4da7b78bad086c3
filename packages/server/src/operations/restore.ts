/**
 * `tracker server restore FILE`: fills an empty database from a backup. The file is read whole once and
 * checked (`readBackup`) before anything is touched; then the schema is brought to exactly the backup's
 * migrations, every table is loaded with `COPY` in one transaction (user triggers off: the backup holds
 * what they maintain), sequences are set, and migrations newer than the backup run last, so a backup of
 * an older version is upgraded on the way in.
 */
import { once } from "node:events";
import { MikroORM } from "@mikro-orm/postgresql";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { migrationsList } from "../db/migrations/index.js";
import { openOrm, ormOptions } from "../db/orm.js";
import { ident } from "./backup.js";
import { BadBackup, type Manifest, readBackup } from "./backup-format.js";

export interface RestoreSummary {
  createdAt: string;
  tables: number;
  rows: number;
}

/** Checks a backup file whole; throws `BadBackup` saying what is wrong with it. */
export async function verifyBackup(file: string): Promise<Manifest> {
  const { manifest } = await readBackup(file);
  const known = migrationsList.map((m) => m.name);
  manifest.migrations.forEach((name, i) => {
    if (known[i] !== name)
      throw new BadBackup(
        `it was made by another version of Tracker (its schema has migration ${name}, which this version ` +
          "does not know at that place); restore it with the version that made it",
      );
  });
  return manifest;
}

/** Why a target cannot take a restore: it is not empty. */
export class TargetNotEmpty extends Error {}

/** Refuses a database that holds any table of its own. */
export async function refuseNonEmptyDatabase(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'S')`,
    );
    if (rows[0]!.n > 0)
      throw new TargetNotEmpty(
        "the database is not empty (it holds tables); restore into a new, empty database",
      );
  } finally {
    await client.end();
  }
}

/** Restores `file` (already verified) into the empty database at `databaseUrl`. */
export async function restoreDatabase(
  databaseUrl: string,
  file: string,
  manifest: Manifest,
): Promise<RestoreSummary> {
  await refuseNonEmptyDatabase(databaseUrl);
  // The schema exactly as the backup's, so its columns are the ones the file holds.
  const orm = await MikroORM.init(ormOptions(databaseUrl));
  try {
    const last = manifest.migrations.at(-1);
    if (last) await orm.getMigrator().up({ to: last });
  } finally {
    await orm.close(true);
  }

  const client = new pg.Client({ connectionString: databaseUrl, application_name: "tracker-restore" });
  await client.connect();
  let rows = 0;
  try {
    await client.query("begin");
    let copy: ReturnType<typeof copyFrom> | undefined;
    let current = "";
    const { trailer } = await readBackup(file, async (part) => {
      if (part.kind === "table") {
        current = part.name;
        const table = manifest.tables.find((t) => t.name === part.name)!;
        await client.query(`alter table ${ident(table.name)} disable trigger user`);
        // Rows a migration seeds (a singleton's one row) are the backup's to give.
        await client.query(`delete from ${ident(table.name)}`);
        copy = client.query(
          copyFrom(`copy ${ident(table.name)} (${table.columns.map(ident).join(", ")}) from stdin`),
        );
      } else if (part.kind === "data") {
        if (!copy!.write(part.chunk)) await once(copy!, "drain");
      } else {
        const done = once(copy!, "finish");
        copy!.end();
        await done;
        copy = undefined;
        rows += part.rows;
        await client.query(`alter table ${ident(current)} enable trigger user`);
      }
    });
    for (const [name, value] of Object.entries(trailer.sequences))
      await client.query("select setval($1::regclass, $2)", [ident(name), value]);
    await client.query("commit");
  } catch (err) {
    await client.query("rollback").catch(() => undefined);
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
  // Migrations newer than the backup, as every start applies them.
  await (await openOrm(databaseUrl)).close(true);
  return { createdAt: manifest.createdAt, tables: manifest.tables.length, rows };
}
