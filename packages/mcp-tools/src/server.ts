import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolDeps } from "./deps.js";
import { registerDynamicToolsets } from "./dynamic.js";
import { registerPrompts } from "./prompts/index.js";
import { registerResources } from "./resources/index.js";
import { ResourceSubscriptions } from "./subscriptions.js";
import { registerTool } from "./tool.js";
import { installCompactToolList } from "./tool-list.js";
import {
  ALL_TOOLS,
  allowedTool,
  selectTools,
  TOOLSET_NAMES,
  TOOLSETS,
  type ToolSelection,
  type ToolsetName,
} from "./toolsets.js";
import { VERSION } from "./version.js";

export const SERVER_INFO = { name: "tracker", title: "Tracker", version: VERSION };

const INSTRUCTIONS =
  "Tracker is an issue tracker. Name things as people do: issues by identifier (`ENG-123`), teams by key (`ENG`), " +
  'states by name ("In Progress"), people by email or `me`, projects and initiatives by name. list_teams gives ' +
  "team keys and state names. Lists answer one line per item and a `cursor` for the next page. Resources " +
  "tracker://issues/ENG-123, tracker://projects/<name>, tracker://teams/ENG can be subscribed to for changes.";

/**
 * One sentence naming the toolsets this session leaves out (and the key could use), so an agent knows a
 * task it cannot do here is possible: the tool list shows only what is on.
 */
function moreToolsets(offered: Set<string>, selection: TrackerServerOptions): string {
  const off = TOOLSET_NAMES.filter((name: ToolsetName) => {
    const usable = TOOLSETS[name].tools.filter((t) => allowedTool(t, selection));
    return usable.length > 0 && usable.every((t) => !offered.has(t.name));
  });
  if (off.length === 0) return "";
  const list = off.map((name) => `${name} (${TOOLSETS[name].short})`).join("; ");
  return selection.dynamic
    ? ` Off until enable_toolset turns them on: ${list}.`
    : ` Not offered here: ${list}. If a task needs one, tell the user: tracker-mcp --toolsets, or the X-MCP-Toolsets header over HTTP, turns it on.`;
}
export interface TrackerServerOptions extends ToolSelection {
  /** Start with list_toolsets and enable_toolset only (plus what the selection names). */
  dynamic?: boolean | undefined;
}

/** A tool server acting through `deps.tracker`: the selected tools, the resources and the prompts. */
export function createTrackerServer(deps: ToolDeps, options: TrackerServerOptions = {}): McpServer {
  // What the agent can reach: the selection, or with --dynamic what enable_toolset may turn on.
  const selected = new Set(selectTools(options).map((t) => t.name));
  const reachable = new Set(
    options.dynamic ? ALL_TOOLS.filter((t) => allowedTool(t, options)).map((t) => t.name) : selected,
  );
  const server = new McpServer(SERVER_INFO, {
    instructions:
      INSTRUCTIONS +
      moreToolsets(options.dynamic && !options.toolsets && !options.tools ? new Set() : selected, options),
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    },
    // Enabling a toolset enables each of its tools: tell the client once.
    debouncedNotificationMethods: ["notifications/tools/list_changed"],
  });
  if (options.dynamic) registerDynamicToolsets(server, deps, options);
  else for (const tool of selectTools(options)) registerTool(server, deps, tool);
  installCompactToolList(server);
  registerResources(server, deps);
  registerPrompts(server, deps, (tool) => reachable.has(tool));
  new ResourceSubscriptions(server, deps).install();
  return server;
}
