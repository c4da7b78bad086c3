import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolDeps } from "./deps.js";
import { registerDynamicToolsets } from "./dynamic.js";
import { registerPrompts } from "./prompts/index.js";
import { registerResources } from "./resources/index.js";
import { ResourceSubscriptions } from "./subscriptions.js";
import { registerTool } from "./tool.js";
import { installCompactToolList } from "./tool-list.js";
import { selectTools, type ToolSelection } from "./toolsets.js";
import { VERSION } from "./version.js";

export const SERVER_INFO = { name: "tracker", title: "Tracker", version: VERSION };

const INSTRUCTIONS =
  "Tracker is an issue tracker. Name things as people do: issues by identifier (`ENG-123`), teams by key (`ENG`), " +
  'states by name ("In Progress"), people by email or `me`, projects and initiatives by name. list_teams gives ' +
  "team keys and state names. Lists answer one line per item and a `cursor` for the next page. Resources " +
  "tracker://issues/ENG-123, tracker://projects/<name>, tracker://teams/ENG can be subscribed to for changes.";

export interface TrackerServerOptions extends ToolSelection {
  /** Start with list_toolsets and enable_toolset only (plus what the selection names). */
  dynamic?: boolean | undefined;
}

/** A tool server acting through `deps.tracker`: the selected tools, the resources and the prompts. */
export function createTrackerServer(deps: ToolDeps, options: TrackerServerOptions = {}): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions: INSTRUCTIONS,
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
  registerPrompts(server, deps);
  new ResourceSubscriptions(server, deps).install();
  return server;
}
