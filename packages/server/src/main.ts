#!/usr/bin/env -S node --max-old-space-size=1024
// The heap cap (also in `npm start`) is far above the server's live heap (~50-100 MB), but it makes V8
// collect the old generation before it grows to ~200 MB under load: peak RSS ~180 instead of ~290 MB in the
// bench's initiative list (bench/README.md).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "./config.js";
import { openDatabase } from "./db/open-database.js";
import { hashToken } from "./http/auth.js";
import { createLogger } from "./logger.js";
import { anyWorkspace, keyExists } from "./modules/dev/demo.query.js";
import { seedDemoWorkspace } from "./modules/dev/demo-seed.js";
import { startHttp } from "./server.js";

const config = loadConfig();
const logger = createLogger(config.logLevel);

const db = await openDatabase(config, logger);
let running: Awaited<ReturnType<typeof startHttp>> | undefined;
try {
  running = await startHttp(config, logger, db.url, undefined, db.embedded);
} catch (err) {
  logger.error("start failed", { error: (err as Error).message });
  await db.stop();
  process.exit(1);
}
const { orm } = running;
// The port actually bound: PORT=0 asks the system for a free one.
const port = Number(new URL(running.url).port);

if (config.nodeEnv === "development") await announceDemoKey();
logger.info("listening", {
  url: `http://localhost:${port}/api/v1`,
  docs: `http://localhost:${port}/docs`,
});

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    await running?.close();
    await db.stop();
    process.exit(0);
  });
}

/**
 * In development, an empty database gets a demo workspace and its admin key, printed so the quick start
 * works with one command. The key is kept beside the data (development only) so later starts show it again.
 */
async function announceDemoKey() {
  const file = path.join(
    db.embedded ? config.dataDir : path.join(config.dataDir, ".."),
    "demo-credentials.json",
  );
  const em = orm.em.fork();
  let creds: { workspace: string; email: string; apiKey: string } | undefined;
  if (!(await anyWorkspace(em))) {
    const seeded = await seedDemoWorkspace(em, { email: "admin@example.com", name: "Demo Admin" });
    creds = { workspace: seeded.workspace.slug, email: seeded.user.email, apiKey: seeded.apiKey.token };
    if (db.embedded) writeFileSync(file, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  } else if (db.embedded && existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, "utf8")) as typeof creds;
    const live = saved && (await keyExists(em, hashToken(saved.apiKey)));
    if (live) creds = saved;
  }
  if (creds) {
    process.stdout.write(
      `\nDemo workspace "${creds.workspace}" is ready. Admin: ${creds.email}\n` +
        `API key: ${creds.apiKey}\n` +
        `Try: curl -H "Authorization: Bearer ${creds.apiKey}" http://localhost:${port}/api/v1/users\n\n`,
    );
  }
}
