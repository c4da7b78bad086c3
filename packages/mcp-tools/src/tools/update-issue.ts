import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { BodyOf } from "@tracker/sdk";
import { parsePriority } from "@tracker/sdk";
import { z } from "zod";
import type { ToolDeps } from "../deps.js";
import { toolFailure } from "../errors.js";
import { dateInput, formatInput, issueLine, jsonResult, textResult } from "../format.js";
import { priorityInput } from "./create-issue.js";
import { identifierInput } from "./get-issue.js";

export const updateIssueInput = {
  identifier: identifierInput,
  title: z.string().min(1).max(255).optional().describe("New title."),
  description: z.string().max(100_000).nullable().optional().describe("New Markdown body; `null` clears it."),
  state: z
    .string()
    .min(1)
    .optional()
    .describe('Workflow state name of the issue\'s team, e.g. "In Progress", "Done", "Canceled".'),
  priority: priorityInput.optional(),
  assignee: z
    .string()
    .min(1)
    .nullable()
    .optional()
    .describe("Assignee email, user id, or `me`; `null` or `none` unassigns."),
  addLabels: z
    .array(z.string().min(1).max(100))
    .max(50)
    .optional()
    .describe("Label names to add; unknown ones are created."),
  removeLabels: z.array(z.string().min(1).max(100)).max(50).optional().describe("Label names to remove."),
  project: z.string().min(1).nullable().optional().describe("Project name or id; `null` clears it."),
  dueDate: dateInput.nullable().optional().describe("Due date `YYYY-MM-DD`; `null` clears it."),
  estimate: z.number().int().min(0).nullable().optional().describe("Estimate in points; `null` clears it."),
  format: formatInput,
};

export function registerUpdateIssueTool(server: McpServer, deps: ToolDeps) {
  return server.registerTool(
    "update_issue",
    {
      title: "Update issue",
      description:
        'Change an issue (`ENG-123`): state by name ("In Progress", "Done"), assignee (email, `me`, or `none`), ' +
        "priority (`high`…), title, description, labels to add or remove, project, due date, estimate. Only the " +
        "fields given change. To move an issue to another team use move_issues.",
      inputSchema: updateIssueInput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async (input) => {
      const { identifier, format, priority, assignee, ...fields } = input;
      const body: BodyOf<"updateIssue"> = {};
      for (const [key, value] of Object.entries(fields))
        if (value !== undefined) Object.assign(body, { [key]: value });
      if (priority !== undefined) body.priority = parsePriority(priority)!;
      if (assignee !== undefined) body.assignee = assignee === "none" ? null : assignee;
      if (Object.keys(body).length === 0) {
        return {
          isError: true,
          content: [
            {
              type: "text",
              text: "Nothing to change: pass at least one of title, description, state, priority, assignee, addLabels, removeLabels, project, dueDate, estimate.",
            },
          ],
        };
      }
      try {
        const issue = await deps.tracker.issues.update(identifier, body);
        return format === "json" ? jsonResult(issue) : textResult(`Updated ${issueLine(issue)}`);
      } catch (err) {
        return toolFailure(err, deps, { identifier, state: input.state, assignee, project: input.project });
      }
    },
  );
}
