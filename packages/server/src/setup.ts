#!/usr/bin/env node
import { parseArgs } from "node:util";
import { loadConfig } from "./config.js";
import { openDatabase } from "./db/open-database.js";
import { openOrm } from "./db/orm.js";
import { createLogger } from "./logger.js";
import { bootstrapWorkspace } from "./modules/dev/bootstrap.js";
import { PASSWORD_MAX, PASSWORD_MIN, setPassword } from "./modules/users/password.js";

const usage = `Usage: npm run setup -- --workspace <name> --email <admin email> --name <admin name> [--slug <slug>] [--password-stdin]

Creates a workspace, its admin and an account-scope API key, and prints them as JSON.
--password-stdin reads the admin's password (10 to 256 characters) from the first line of standard input,
so it stays out of the shell's history and the process list; the admin then signs in to the web board with it.
{"workspace": {...}, "user": {...}, "apiKey": {"id", "name", "scope", "token"}}
Uses DATABASE_URL when set, otherwise the embedded database in TRACKER_DATA_DIR (stop the server first).`;

const { values } = parseArgs({
  options: {
    workspace: { type: "string" },
    slug: { type: "string" },
    email: { type: "string" },
    name: { type: "string" },
    "password-stdin": { type: "boolean" },
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

/** The first line of standard input, without its line ending. */
async function readFirstLine(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) {
    text += chunk;
    if (text.includes("\n")) break;
  }
  return text.split(/\r?\n/)[0] ?? "";
}

let password: string | undefined;
if (values["password-stdin"]) {
  password = await readFirstLine();
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    process.stderr.write(`setup failed: a password has ${PASSWORD_MIN} to ${PASSWORD_MAX} characters\n`);
    process.exit(2);
  }
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
    if (password !== undefined) await setPassword(orm.em.fork(), result.user.id, password);
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
