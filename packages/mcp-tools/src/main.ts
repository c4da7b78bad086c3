#!/usr/bin/env node
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createTracker } from "@tracker/sdk";
import { readConfig, USAGE, UsageError } from "./config.js";
import { roleOf, startHttpServer } from "./http.js";
import { createTrackerServer } from "./server.js";
import { selectTools } from "./toolsets.js";
import { VERSION } from "./version.js";

// stdout carries the protocol over stdio; anything for people goes to stderr.
let parsed: ReturnType<typeof readConfig>;
try {
  parsed = readConfig(process.argv.slice(2), process.env);
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  console.error(`tracker-mcp: ${err.message}\nSee tracker-mcp --help.`);
  process.exit(2);
}
const { config } = parsed;
if (parsed.help) {
  console.log(USAGE);
  process.exit(0);
}
if (parsed.version) {
  console.log(VERSION);
  process.exit(0);
}

const offered = config.dynamic
  ? "list_toolsets, enable_toolset (dynamic)"
  : selectTools(config)
      .map((t) => t.name)
      .join(", ");

if (config.http) {
  const running = await startHttpServer({ ...config, timeoutMs: config.timeoutMs });
  console.error(`tracker-mcp: serving ${running.url} (tools: ${offered})`);
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} else {
  if (!process.env.TRACKER_API_KEY)
    console.error(
      "tracker-mcp: TRACKER_API_KEY is not set; every tool will answer unauthenticated until it is.",
    );
  // createTracker reads TRACKER_URL, TRACKER_API_KEY and TRACKER_WORKSPACE itself.
  const tracker = createTracker({ timeoutMs: config.timeoutMs, userAgent: `tracker-mcp/${VERSION}` });
  // The key's role decides which tools it is offered; one quick look, no retries, so start-up never waits long.
  const role = process.env.TRACKER_API_KEY
    ? await roleOf(
        createTracker({ timeoutMs: config.timeoutMs, maxRetries: 0, userAgent: `tracker-mcp/${VERSION}` }),
        config.timeoutMs,
      )
    : undefined;
  const server = createTrackerServer(
    { tracker, timeoutMs: config.timeoutMs, localFiles: true, lockdown: config.lockdown },
    { ...config, role },
  );
  await server.connect(new StdioServerTransport());
  const shown = config.dynamic
    ? offered
    : selectTools({ ...config, role })
        .map((t) => t.name)
        .join(", ");
  console.error(`tracker-mcp: serving over stdio${role ? ` as ${role}` : ""} (tools: ${shown})`);
}
