import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolDeps } from "./deps.js";
import { registerToolsets, TOOLSET_NAMES, type ToolsetName } from "./toolsets.js";

export const SERVER_INFO = { name: "tracker", version: "0.1.0" };

const INSTRUCTIONS =
  "Tracker is an issue tracker. Issues are named by identifier (`ENG-123`: team key, number); teams by key (`ENG`); " +
  'states by name ("In Progress"); people by email or `me`. list_teams gives team keys and state names. Text answers ' +
  "are compact; pass `format: json` for every field.";

/** A tool server for `deps.tracker`, offering the chosen toolsets (all by default). */
export function createTrackerServer(deps: ToolDeps, toolsets: ToolsetName[] = TOOLSET_NAMES): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  registerToolsets(server, deps, toolsets);
  return server;
}
