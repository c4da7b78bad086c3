import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const registered = new WeakMap<McpServer, Map<string, RegisteredTool>>();

/** Remembers a tool registered on `server`, for the tool list below. */
export function trackTool(server: McpServer, name: string, tool: RegisteredTool): void {
  const tools = registered.get(server) ?? new Map<string, RegisteredTool>();
  registered.set(server, tools.set(name, tool));
}

// An output schema describes what the server sends, so `additionalProperties: false` and `required` on its
// objects tell the model nothing it can act on (the answer shows which fields came; `null` stays in each
// field's type); on input they do (a misspelt or missing argument is refused) and stay.
function dropClosedObjects(node: unknown): void {
  if (Array.isArray(node)) for (const item of node) dropClosedObjects(item);
  else if (node && typeof node === "object") {
    const record = node as Record<string, unknown>;
    if (record.additionalProperties === false) delete record.additionalProperties;
    if (Array.isArray(record.required)) delete record.required;
    for (const value of Object.values(record)) dropClosedObjects(value);
  }
}

// zod writes every integer's safe-integer range as its bounds: a number with no bound in the contract
// (an estimate) would carry ±9007199254740991, which tells a model nothing.
function dropSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) for (const item of node) dropSafeIntegerBounds(item);
  else if (node && typeof node === "object") {
    const record = node as Record<string, unknown>;
    if (record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum;
    if (record.minimum === Number.MIN_SAFE_INTEGER) delete record.minimum;
    for (const value of Object.values(record)) dropSafeIntegerBounds(value);
  }
}

function jsonSchema(schema: unknown, io: "input" | "output"): Tool["inputSchema"] {
  const json = z.toJSONSchema(schema as z.ZodType, { target: "draft-7", io }) as Record<string, unknown>;
  delete json.$schema;
  dropSafeIntegerBounds(json);
  if (io === "output") dropClosedObjects(json);
  return json as Tool["inputSchema"];
}

/**
 * Answers `tools/list` as the MCP SDK does, minus what costs every request tokens and tells a model
 * nothing: the `$schema` line of each input and output schema, the default `execution` block (absent
 * means the same), safe-integer bounds and the closed-object and `required` markers of output schemas. Every agent pays for the tool list on every turn, so bytes here are worth saving.
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
