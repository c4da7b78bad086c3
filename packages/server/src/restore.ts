#!/usr/bin/env node
import { existsSync, readdirSync, rmSync } from "node:fs";
import { loadConfig, oneFileArgument } from "./config.js";
import { startEmbeddedPostgres } from "./db/embedded-postgres.js";
import { BadBackup } from "./operations/backup-format.js";
import { restoreDatabase, TargetNotEmpty, verifyBackup } from "./operations/restore.js";

const usage = `Usage: npm run restore -- FILE

Fills an empty database from a backup made by 'npm run backup'. Uses DATABASE_URL when set (the database
must hold no tables), otherwise the embedded database in TRACKER_DATA_DIR (the folder must be empty or
absent). The file is checked whole before anything is written; a damaged, truncated or foreign file is
refused, and so is a target that is not empty.`;

const file = oneFileArgument(usage);
const config = loadConfig();
const target = config.databaseUrl ? "the database at DATABASE_URL" : config.dataDir;

let code = 0;
let createdFolder = false;
let stop: (() => Promise<void>) | undefined;
try {
  if (!existsSync(file)) throw new BadBackup("there is no such file");
  // Nothing is touched before the file and the target are known to be good.
  const manifest = await verifyBackup(file);
  let url = config.databaseUrl;
  if (!url) {
    if (existsSync(config.dataDir) && readdirSync(config.dataDir).length > 0)
      throw new TargetNotEmpty(`${config.dataDir} is not empty; restore into a new or empty folder`);
    createdFolder = true;
    const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, supervise: false });
    stop = () => embedded.stop();
    url = embedded.url;
  }
  const summary = await restoreDatabase(url, file, manifest);
  process.stdout.write(
    `Restored ${summary.rows} rows in ${summary.tables} tables, as of ${summary.createdAt}, into ${target}.\n`,
  );
} catch (err) {
  code = err instanceof BadBackup || err instanceof TargetNotEmpty ? 2 : 1;
  const why =
    err instanceof BadBackup ? `${file} cannot be restored: ${err.message}` : (err as Error).message;
  process.stderr.write(`restore ${code === 2 ? "refused" : "failed"}: ${why}\n`);
  if (code === 1) {
    await stop?.();
    stop = undefined;
    // A failed load leaves nothing half-made in a folder that was empty before.
    if (createdFolder) rmSync(config.dataDir, { recursive: true, force: true });
  }
} finally {
  await stop?.();
}
process.exit(code);
