#!/usr/bin/env node
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createTracker } from "@tracker/sdk";
import { createTrackerServer } from "./server.js";
import { parseToolsets, type ToolsetName } from "./toolsets.js";

// stdout carries the protocol; anything for people goes to stderr.
let toolsets: ToolsetName[];
try {
  toolsets = parseToolsets(process.env.TRACKER_TOOLSETS);
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
if (!process.env.TRACKER_API_KEY) {
  console.error(
    "tracker-mcp: TRACKER_API_KEY is not set; every tool will answer unauthenticated until it is.",
  );
}

// createTracker reads TRACKER_URL, TRACKER_API_KEY and TRACKER_WORKSPACE itself.
const server = createTrackerServer({ tracker: createTracker() }, toolsets);
await server.connect(new StdioServerTransport());
console.error(`tracker-mcp: serving ${toolsets.join(", ")} over stdio`);
