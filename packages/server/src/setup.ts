#!/usr/bin/env node
import { parseArgs } from "node:util";
import { loadConfig } from "./config.js";
import { openOrm } from "./db/orm.js";
import { createLogger } from "./logger.js";
import { bootstrapWorkspace } from "./modules/dev/bootstrap.js";
import { openDatabase } from "./server.js";

const usage = `Usage: npm run setup -- --workspace <name> --email <admin email> --name <admin name> [--slug <slug>]

Creates a workspace, its admin and an account-scope API key, and prints them as JSON:
{"workspace": {...}, "user": {...}, "apiKey": {"id", "name", "scope", "token"}}
Uses DATABASE_URL when set, otherwise the embedded database in TRACKER_DATA_DIR (stop the server first).`;

const { values } = parseArgs({
  options: {
    workspace: { type: "string" },
    slug: { type: "string" },
    email: { type: "string" },
    name: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
if (!values.workspace || !values.email || !values.name) {
  process.stderr.write(`${usage}\n`);
  process.exit(2);
}

const config = loadConfig();
const logger = createLogger(process.env.LOG_LEVEL ? config.logLevel : "warn", (l) => process.stderr.write(l));
const db = await openDatabase(config, logger);
let code = 0;
try {
  const orm = await openOrm(db.url);
  try {
    const result = await bootstrapWorkspace(orm.em.fork(), {
      workspaceName: values.workspace,
      workspaceSlug: values.slug,
      email: values.email,
      name: values.name,
    });
    process.stdout.write(
      `${JSON.stringify({ workspace: result.workspace, user: result.user, apiKey: result.apiKey }, null, 2)}\n`,
    );
  } finally {
    await orm.close(true);
  }
} catch (err) {
  process.stderr.write(`setup failed: ${(err as Error).message}\n`);
  code = 1;
} finally {
  await db.stop();
}
process.exit(code);
