/**
 * `tracker server backup FILE`: a consistent copy of a running install without stopping it. Every table is
 * read with `COPY` inside one repeatable-read, read-only transaction, so the whole file is one snapshot of
 * the database while writers go on; sequences are read after the data. The file is written beside its
 * target, synced and renamed into place, so FILE is either the previous file or a whole backup.
 */
import { once } from "node:events";
import { closeSync, createWriteStream, fsyncSync, openSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { finished } from "node:stream/promises";
import { createGzip } from "node:zlib";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { BackupWriter, type Manifest, type TableManifest } from "./backup-format.js";

export interface BackupSummary {
  file: string;
  bytes: number;
  tables: number;
  rows: number;
  createdAt: string;
}

/** Quotes an identifier for SQL. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The application's tables (schema `public`, not the migrations' own) with their stored columns, parents
 * before children by foreign key, so a restore can load them in this order with every constraint on.
 */
export async function listTables(client: pg.Client): Promise<TableManifest[]> {
  const { rows } = await client.query<{ name: string; columns: string[]; parents: string[] }>(
    `select c.relname as name,
            array(select a.attname::text from pg_attribute a
                   where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
                   order by a.attnum) as columns,
            array(select distinct p.relname::text from pg_constraint f join pg_class p on p.oid = f.confrelid
                   where f.conrelid = c.oid and f.contype = 'f' and f.confrelid <> c.oid) as parents
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname <> 'mikro_orm_migrations'
      order by c.relname`,
  );
  const byName = new Map(rows.map((r) => [r.name, r]));
  const ordered: TableManifest[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (name: string) => {
    if (placed.has(name)) return;
    if (visiting.has(name)) throw new Error(`tables refer to each other in a cycle through ${name}`);
    visiting.add(name);
    const row = byName.get(name)!;
    for (const parent of row.parents) if (byName.has(parent)) place(parent);
    visiting.delete(name);
    placed.add(name);
    ordered.push({ name, columns: row.columns });
  };
  for (const row of rows) place(row.name);
  return ordered;
}

export async function backupDatabase(databaseUrl: string, file: string): Promise<BackupSummary> {
  const target = path.resolve(file);
  const partial = `${target}.partial-${process.pid}`;
  const client = new pg.Client({ connectionString: databaseUrl, application_name: "tracker-backup" });
  await client.connect();
  const out = createWriteStream(partial, { mode: 0o600 });
  const gzip = createGzip({ level: 6 });
  gzip.pipe(out);
  try {
    // One snapshot for every statement below: the file is the database as of this moment.
    await client.query("begin isolation level repeatable read read only");
    const [{ createdAt, postgres }] = (
      await client.query<{ createdAt: string; postgres: string }>(
        `select to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt",
                current_setting('server_version') as postgres`,
      )
    ).rows as [{ createdAt: string; postgres: string }];
    const migrations = (
      await client.query<{ name: string }>("select name from mikro_orm_migrations order by id")
    ).rows.map((r) => r.name);
    const tables = await listTables(client);
    const manifest: Manifest = { format: 1, createdAt, postgres, migrations, tables };
    const writer = new BackupWriter(gzip);
    await writer.header(manifest);
    const rows: Record<string, number> = {};
    for (const table of tables) {
      const columns = table.columns.map(ident).join(", ");
      const copy = client.query(copyTo(`copy ${ident(table.name)} (${columns}) to stdout`));
      rows[table.name] = (await writer.table(table.name, copy)).rows;
    }
    const sequences: Record<string, number> = {};
    for (const s of (
      await client.query<{ name: string; value: string | null }>(
        "select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public'",
      )
    ).rows) {
      if (s.value !== null && s.name !== "mikro_orm_migrations_id_seq") sequences[s.name] = Number(s.value);
    }
    await writer.end({ sequences, rows });
    await client.query("commit");
    gzip.end();
    await finished(out);
    const fd = openSync(partial, "r");
    fsyncSync(fd);
    closeSync(fd);
    renameSync(partial, target);
    syncFolder(path.dirname(target));
    return {
      file: target,
      bytes: out.bytesWritten,
      tables: tables.length,
      rows: Object.values(rows).reduce((a, b) => a + b, 0),
      createdAt,
    };
  } catch (err) {
    gzip.destroy();
    if (!out.closed) {
      const closed = once(out, "close");
      out.destroy();
      await closed.catch(() => undefined);
    }
    rmSync(partial, { force: true });
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Makes a rename in `dir` durable. */
export function syncFolder(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    fsyncSync(fd);
    closeSync(fd);
  } catch {
    // some file systems refuse to sync a folder; the file itself is synced
  }
}
