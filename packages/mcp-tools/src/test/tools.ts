import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll } from "vitest";
import { DEFAULT_TIMEOUT_MS, type ToolDeps } from "../deps.js";
import type { TrackerServerOptions } from "../server.js";
import { TOOLSET_NAMES } from "../toolsets.js";
import { connectClient, textOf } from "./connect.js";
import { useWorkspace, type Workspace } from "./workspace.js";

/** What an agent sees of one call: the text, the structured content and whether it failed. */
export interface ToolResult<T = Record<string, unknown>> {
  text: string;
  data: T;
  isError: boolean;
}

/**
 * A tool's test file: the seeded workspace of `useWorkspace` on a real server, and a real MCP client of a
 * tool server with every toolset (or `options`) acting as its admin.
 */
export function useTools(
  options: TrackerServerOptions = { toolsets: TOOLSET_NAMES },
  deps: Partial<Omit<ToolDeps, "tracker" | "timeoutMs">> = {},
): {
  ws: Workspace;
  call<T = Record<string, unknown>>(tool: string, args?: Record<string, unknown>): Promise<ToolResult<T>>;
  client(): Client;
} {
  const ws = useWorkspace();
  let client: Client;
  beforeAll(async () => {
    client = await connectClient(ws.sdk, options, DEFAULT_TIMEOUT_MS, deps);
  });
  return {
    ws,
    client: () => client,
    async call<T>(tool: string, args: Record<string, unknown> = {}) {
      const result = await client.callTool({ name: tool, arguments: args });
      return { text: textOf(result), data: result.structuredContent as T, isError: result.isError === true };
    },
  };
}
