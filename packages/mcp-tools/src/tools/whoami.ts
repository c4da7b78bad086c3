import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolDeps } from "../deps.js";
import { toolFailure } from "../errors.js";
import { formatInput, jsonResult, textResult } from "../format.js";

export const whoamiInput = { format: formatInput };

export function registerWhoamiTool(server: McpServer, deps: ToolDeps) {
  return server.registerTool(
    "whoami",
    {
      title: "Who am I",
      description:
        "Tell whose API key this tool server acts with: their name, email and workspace role. Issues assigned to them are `assignee: me`.",
      inputSchema: whoamiInput,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (input) => {
      try {
        const me = (await deps.tracker.users.list()).find((u) => u.isMe);
        if (!me)
          return {
            isError: true,
            content: [{ type: "text", text: "The server did not mark any user as the key's owner." }],
          };
        return input.format === "json"
          ? jsonResult(me)
          : textResult(`You are ${me.name} <${me.email}>, ${me.role} of this workspace.`);
      } catch (err) {
        return toolFailure(err, deps);
      }
    },
  );
}
