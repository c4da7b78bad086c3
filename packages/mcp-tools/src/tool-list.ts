import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const registered = new WeakMap<McpServer, Map<string, RegisteredTool>>();

/** Remembers a tool registered on `server`, for the tool list below. */
export function trackTool(server: McpServer, name: string, tool: RegisteredTool): void {
  const tools = registered.get(server) ?? new Map<string, RegisteredTool>();
  registered.set(server, tools.set(name, tool));
}

function jsonSchema(schema: unknown, io: "input" | "output"): Tool["inputSchema"] {
  const json = z.toJSONSchema(schema as z.ZodType, { target: "draft-7", io }) as Record<string, unknown>;
  delete json.$schema;
  return json as Tool["inputSchema"];
}

/**
 * Answers `tools/list` as the MCP SDK does, minus what costs every request tokens and tells a model
 * nothing: the `$schema` line of each input and output schema and the default `execution` block (absent
 * means the same). Every agent pays for the tool list on every turn, so bytes here are worth saving.
 */
export function installCompactToolList(server: McpServer): void {
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...(registered.get(server) ?? new Map<string, RegisteredTool>())]
      .filter(([, tool]) => tool.enabled)
      .map(
        ([name, tool]): Tool => ({
          name,
          ...(tool.title ? { title: tool.title } : {}),
          ...(tool.description ? { description: tool.description } : {}),
          inputSchema: tool.inputSchema ? jsonSchema(tool.inputSchema, "input") : { type: "object" },
          ...(tool.outputSchema ? { outputSchema: jsonSchema(tool.outputSchema, "output") } : {}),
          ...(tool.annotations ? { annotations: tool.annotations } : {}),
        }),
      ),
  }));
}
