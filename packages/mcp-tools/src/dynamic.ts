import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolDeps } from "./deps.js";
import { registerTool } from "./tool.js";
import { enableToolsetDescription, enableToolsetTool } from "./tools/enable-toolset.js";
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

/** The toolsets of one server, turned on one by one. */
export interface ToolsetRegistry {
  status(): { name: ToolsetName; description: string; enabled: boolean; tools: string[] }[];
  /** The toolsets with a tool this session may use that is not on yet. */
  off(): ToolsetName[];
  /** Turns the toolset's tools on; the server then sends `notifications/tools/list_changed`. */
  enable(name: ToolsetName): string[];
}

export interface ToolsetOptions extends ToolSelection {
  /** Start with list_toolsets and enable_toolset only (plus what the selection names). */
  dynamic?: boolean | undefined;
}

/**
 * The session's tools and the way to the others. Most MCP clients show the model the tool list, not the
 * server's instructions, so a toolset left out must be named there: `enable_toolset` is offered whenever
 * a toolset is off, its description naming each one and what it holds, and calling it registers that
 * toolset's tools (only those the read-only switch, exclusions and role allow). With `--dynamic`
 * (github-mcp-server's dynamic discovery) every allowed tool is registered disabled except those the
 * selection names, and `list_toolsets` comes too, so a session starts with two small tool definitions.
 */
export function registerToolsets(
  server: McpServer,
  deps: ToolDeps,
  options: ToolsetOptions,
): ToolsetRegistry {
  const allowed = ALL_TOOLS.filter((t) => allowedTool(t, options));
  const started = new Set(
    !options.dynamic || options.toolsets || options.tools ? selectTools(options).map((t) => t.name) : [],
  );
  const registered = new Map<string, RegisteredTool>();
  const usable = (name: ToolsetName) => TOOLSETS[name].tools.filter((t) => allowed.includes(t));
  const on = (tool: string) => registered.get(tool)?.enabled === true;
  let enableTool: RegisteredTool | undefined;
  const registry: ToolsetRegistry = {
    status: () =>
      TOOLSET_NAMES.map((name) => {
        const tools = usable(name).map((t) => t.name);
        return {
          name,
          description: TOOLSETS[name].description,
          enabled: tools.length > 0 && tools.every(on),
          tools,
        };
      }),
    off: () => TOOLSET_NAMES.filter((name) => usable(name).some((t) => !on(t.name))),
    enable(name) {
      const tools = usable(name);
      for (const tool of tools) {
        const handle = registered.get(tool.name);
        if (!handle) registered.set(tool.name, registerTool(server, deps, tool));
        else if (!handle.enabled) handle.enable();
      }
      enableTool?.update({ description: enableToolsetDescription(registry.off()) });
      return tools.map((t) => t.name);
    },
  };
  const offAtStart = TOOLSET_NAMES.filter((name) => usable(name).some((t) => !started.has(t.name)));
  if (options.dynamic) registerTool(server, deps, listToolsetsTool(registry));
  const addEnableTool = () => {
    if (options.dynamic || offAtStart.length)
      enableTool = registerTool(server, deps, enableToolsetTool(registry, offAtStart));
  };
  if (options.dynamic) addEnableTool();
  for (const tool of allowed) {
    if (started.has(tool.name)) registered.set(tool.name, registerTool(server, deps, tool));
    else if (options.dynamic) {
      const handle = registerTool(server, deps, tool);
      handle.disable();
      registered.set(tool.name, handle);
    }
  }
  if (!options.dynamic) addEnableTool();
  return registry;
}
