import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ToolDeps } from "../deps.js";
import { toolFailure } from "../errors.js";
import { formatInput, issueDetailText, jsonResult, textResult } from "../format.js";

export const identifierInput = z
  .string()
  .min(1)
  .describe(
    "Issue identifier: team key, dash, number, e.g. `ENG-123`. An old identifier of a moved issue works too.",
  );

export const getIssueInput = {
  identifier: identifierInput,
  format: formatInput,
};

export function registerGetIssueTool(server: McpServer, deps: ToolDeps) {
  return server.registerTool(
    "get_issue",
    {
      title: "Get issue",
      description:
        "Read one issue by identifier (`ENG-123`): its fields, description, sub-issues, relations (blocks, blocked_by, " +
        "related, duplicate) and comments, oldest first.",
      inputSchema: getIssueInput,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (input) => {
      try {
        const issue = await deps.tracker.issues.get(input.identifier);
        return input.format === "json" ? jsonResult(issue) : textResult(issueDetailText(issue));
      } catch (err) {
        return toolFailure(err, deps, { identifier: input.identifier });
      }
    },
  );
}
