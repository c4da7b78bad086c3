import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolDeps } from "./deps.js";
import { registerToolsets, type ToolsetOptions } from "./dynamic.js";
import { registerPrompts } from "./prompts/index.js";
import { registerResources } from "./resources/index.js";
import { ResourceSubscriptions } from "./subscriptions.js";
import { installCompactToolList } from "./tool-list.js";
import {
  ALL_TOOLS,
  allowedTool,
  selectTools,
  TOOLSET_NAMES,
  TOOLSETS,
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
 * One sentence naming the toolsets this session leaves out (and the key could use), for clients that show
 * the instructions; the tool list says the same in enable_toolset's description.
 */
function moreToolsets(offered: Set<string>, selection: TrackerServerOptions): string {
  const off = TOOLSET_NAMES.filter((name: ToolsetName) =>
    TOOLSETS[name].tools.some((t) => allowedTool(t, selection) && !offered.has(t.name)),
  );
  if (off.length === 0) return "";
  const list = off.map((name) => `${name} (${TOOLSETS[name].short})`).join("; ");
  return ` Off until enable_toolset turns them on: ${list}.`;
}
export type TrackerServerOptions = ToolsetOptions;

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
  registerToolsets(server, deps, options);
  installCompactToolList(server);
  registerResources(server, deps);
  registerPrompts(server, deps, (tool) => reachable.has(tool));
  new ResourceSubscriptions(server, deps).install();
  return server;
}
