import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ToolDeps } from "../deps.js";
import { toolFailure } from "../errors.js";
import { jsonResult, textResult } from "../format.js";
import { identifierInput } from "./get-issue.js";

export const addCommentInput = {
  identifier: identifierInput,
  body: z.string().min(1).max(65_535).describe("The comment, in Markdown."),
  format: z
    .enum(["text", "json"])
    .default("text")
    .describe("`text` (default) confirms briefly; `json` answers the comment."),
};

export function registerAddCommentTool(server: McpServer, deps: ToolDeps) {
  return server.registerTool(
    "add_comment",
    {
      title: "Add comment",
      description: "Comment on an issue (`ENG-123`) as the API key's owner. The body is Markdown.",
      inputSchema: addCommentInput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (input) => {
      try {
        const comment = await deps.tracker.comments.create(input.identifier, { body: input.body });
        return input.format === "json"
          ? jsonResult(comment)
          : textResult(`Commented on ${input.identifier} as ${comment.author.name} (comment ${comment.id}).`);
      } catch (err) {
        return toolFailure(err, deps, { identifier: input.identifier });
      }
    },
  );
}
