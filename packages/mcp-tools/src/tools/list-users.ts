import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Schemas } from "@tracker/sdk";
import type { ToolDeps } from "../deps.js";
import { toolFailure } from "../errors.js";
import { formatInput, jsonResult, textResult } from "../format.js";

export const listUsersInput = { format: formatInput };

export function userLine(user: Schemas["User"]): string {
  return `${user.name} <${user.email}>  ${user.role}${user.isMe ? "  (you)" : ""}`;
}

export function registerListUsersTool(server: McpServer, deps: ToolDeps) {
  return server.registerTool(
    "list_users",
    {
      title: "List users",
      description:
        "List the workspace's members: name, email and role. Their emails are what `assignee` accepts (or `me` for the key's owner, marked `(you)`).",
      inputSchema: listUsersInput,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (input) => {
      try {
        const users = await deps.tracker.users.list();
        return input.format === "json" ? jsonResult(users) : textResult(users.map(userLine).join("\n"));
      } catch (err) {
        return toolFailure(err, deps);
      }
    },
  );
}
