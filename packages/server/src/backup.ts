#!/usr/bin/env node
import { loadConfig, oneFileArgument } from "./config.js";
import { runningClusterUrl, startEmbeddedPostgres } from "./db/embedded-postgres.js";
import { backupDatabase } from "./operations/backup.js";

const usage = `Usage: npm run backup -- FILE

Writes a consistent backup of the whole database to FILE (one snapshot, taken while the server keeps
running). Uses DATABASE_URL when set, otherwise the embedded database in TRACKER_DATA_DIR: the running
server's, or started for the backup when no server runs. Restore it with 'npm run restore -- FILE'.`;

const file = oneFileArgument(usage);

const config = loadConfig();
let code = 0;
let stop: (() => Promise<void>) | undefined;
try {
  let url = config.databaseUrl ?? runningClusterUrl(config.dataDir);
  if (!url) {
    const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, supervise: false });
    stop = () => embedded.stop();
    url = embedded.url;
  }
  const summary = await backupDatabase(url, file);
  process.stdout.write(
    `Backed up ${summary.rows} rows in ${summary.tables} tables, as of ${summary.createdAt}, to ${summary.file} ` +
      `(${(summary.bytes / 1024 / 1024).toFixed(1)} MB).\n`,
  );
} catch (err) {
  process.stderr.write(`backup failed: ${(err as Error).message}\n`);
  code = 1;
} finally {
  await stop?.();
}
process.exit(code);
