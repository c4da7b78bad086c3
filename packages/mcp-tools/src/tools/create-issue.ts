import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { BodyOf } from "@tracker/sdk";
import { PRIORITY_NAMES, parsePriority } from "@tracker/sdk";
import { z } from "zod";
import type { ToolDeps } from "../deps.js";
import { toolFailure } from "../errors.js";
import { dateInput, formatInput, issueLine, jsonResult, textResult } from "../format.js";

export const priorityInput = z
  .union([z.enum(PRIORITY_NAMES), z.number().int().min(0).max(4)])
  .describe("`urgent`, `high`, `medium`, `low` or `none` (or 1-4, 0 for none).");

export const createIssueInput = {
  team: z.string().min(1).describe("Team key, e.g. `ENG` (list_teams shows them)."),
  title: z.string().min(1).max(255).describe("Short summary."),
  description: z.string().max(100_000).optional().describe("Markdown body."),
  priority: priorityInput.optional(),
  state: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Workflow state name of the team, e.g. "Todo" or "In Progress". Default: the team\'s backlog state.',
    ),
  assignee: z.string().min(1).optional().describe("Assignee email, user id, or `me` for the key's owner."),
  labels: z
    .array(z.string().min(1).max(100))
    .max(50)
    .optional()
    .describe("Label names; unknown ones are created."),
  project: z.string().min(1).optional().describe("Project name or id; the project must include the team."),
  dueDate: dateInput.optional().describe("Due date, `YYYY-MM-DD`."),
  estimate: z.number().int().min(0).optional().describe("Estimate in points."),
  parent: z
    .string()
    .min(1)
    .optional()
    .describe("Identifier of the parent issue, e.g. `ENG-100`, to make a sub-issue."),
  format: formatInput,
};

export function registerCreateIssueTool(server: McpServer, deps: ToolDeps) {
  return server.registerTool(
    "create_issue",
    {
      title: "Create issue",
      description:
        "Create an issue in a team (`ENG`) and answer its new identifier. Optional: description (Markdown), priority " +
        '(`high`…), state name ("Todo"), assignee (email or `me`), labels (created when unknown), project, due date, ' +
        "estimate, parent issue.",
      inputSchema: createIssueInput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (input) => {
      try {
        const { format, priority, ...fields } = input;
        const body: BodyOf<"createIssue"> = { ...fields };
        if (priority !== undefined) body.priority = parsePriority(priority)!;
        const issue = await deps.tracker.issues.create(body);
        return format === "json" ? jsonResult(issue) : textResult(`Created ${issueLine(issue)}`);
      } catch (err) {
        return toolFailure(err, deps, input);
      }
    },
  );
}
