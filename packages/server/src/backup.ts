#!/usr/bin/env node
import { parseArgs } from "node:util";
import { fileArgument, loadConfig } from "./config.js";
import { runningClusterUrl, startEmbeddedPostgres } from "./db/embedded-postgres.js";
import { backupDatabase } from "./operations/backup.js";

const usage = `Usage: npm run backup -- FILE

Writes a consistent backup of the whole database to FILE (one snapshot, taken while the server keeps
running). Uses DATABASE_URL when set, otherwise the embedded database in TRACKER_DATA_DIR: the running
server's, or started for the backup when no server runs. Restore it with 'npm run restore -- FILE'.`;

const { values, positionals } = parseArgs({
  options: { help: { type: "boolean", short: "h" } },
  allowPositionals: true,
});
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
if (positionals.length !== 1) {
  process.stderr.write(`${usage}\n`);
  process.exit(2);
}

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
  const summary = await backupDatabase(url, fileArgument(positionals[0]!));
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
