import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolDeps } from "./deps.js";
import { registerTool } from "./tool.js";
import { enableToolsetTool } from "./tools/enable-toolset.js";
import { listToolsetsTool } from "./tools/list-toolsets.js";
import {
  ALL_TOOLS,
  allowedTool,
  selectTools,
  TOOLSET_NAMES,
  TOOLSETS,
  type ToolSelection,
  type ToolsetName,
} from "./toolsets.js";

/** The toolsets of one server, turned on one by one (`--dynamic`). */
export interface ToolsetRegistry {
  status(): { name: ToolsetName; description: string; enabled: boolean; tools: string[] }[];
  /** Enables the toolset's tools; the server then sends `notifications/tools/list_changed`. */
  enable(name: ToolsetName): string[];
}

/**
 * Dynamic discovery, as github-mcp-server offers it: every allowed tool is registered but disabled, except
 * those the selection names; `list_toolsets` and `enable_toolset` let the agent turn the rest on, so a session
 * starts with two small tool definitions instead of all of them.
 */
export function registerDynamicToolsets(
  server: McpServer,
  deps: ToolDeps,
  selection: ToolSelection,
): ToolsetRegistry {
  const allowed = ALL_TOOLS.filter((t) => allowedTool(t, selection));
  const startEnabled = new Set(
    selection.toolsets || selection.tools ? selectTools(selection).map((t) => t.name) : [],
  );
  const registered = new Map<string, RegisteredTool>();
  const registry: ToolsetRegistry = {
    status: () =>
      TOOLSET_NAMES.map((name) => {
        const tools = TOOLSETS[name].tools.filter((t) => registered.has(t.name)).map((t) => t.name);
        return {
          name,
          description: TOOLSETS[name].description,
          enabled: tools.length > 0 && tools.every((t) => registered.get(t)!.enabled),
          tools,
        };
      }),
    enable(name) {
      const tools = TOOLSETS[name].tools.filter((t) => registered.has(t.name)).map((t) => t.name);
      for (const tool of tools) if (!registered.get(tool)!.enabled) registered.get(tool)!.enable();
      return tools;
    },
  };
  registerTool(server, deps, listToolsetsTool(registry));
  registerTool(server, deps, enableToolsetTool(registry));
  for (const tool of allowed) {
    const handle = registerTool(server, deps, tool);
    if (!startEnabled.has(tool.name)) handle.disable();
    registered.set(tool.name, handle);
  }
  return registry;
}
