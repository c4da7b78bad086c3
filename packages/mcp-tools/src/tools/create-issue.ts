import type { BodyOf } from "@tracker/sdk";
import { parsePriority } from "@tracker/sdk";
import { z } from "zod";
import { schema, text, texts, whole } from "../contract.js";
import { briefError } from "../errors.js";
import { dateInput, issueLine, issueRow, toIssueRow } from "../format.js";
import {
  cycleInput,
  identifiersInput,
  priorityInput,
  projectRefInput,
  teamInput,
  userInput,
} from "../inputs.js";
import { createdLabelsLine, labelsToCreate } from "../side-effects.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";

/** An issue's fields as an agent gives them: one for `create_issue`, each item of `create_issues`. */
export const issueFields = {
  team: teamInput,
  title: text(schema.IssueCreate.title),
  description: text(schema.IssueCreate.description).optional().describe("Markdown."),
  priority: priorityInput.optional(),
  state: z.string().min(1).optional().describe("State name; default the team's backlog state."),
  assignee: userInput.optional(),
  labels: texts(schema.IssueCreate.labels).optional(),
  project: projectRefInput.optional(),
  cycle: cycleInput.optional(),
  dueDate: dateInput.optional(),
  estimate: whole(schema.IssueCreate.estimate).optional(),
  parent: z.string().min(1).optional().describe("Parent issue identifier, for a sub-issue."),
};

/** The API's create body from those fields: the priority name (`high`) made its number. */
export function createBody({
  priority,
  ...fields
}: z.output<z.ZodObject<typeof issueFields>>): BodyOf<"createIssue"> {
  const body: BodyOf<"createIssue"> = { ...fields };
  if (priority !== undefined) body.priority = parsePriority(priority)!;
  return body;
}

export const createIssueTool = defineTool({
  name: "create_issue",
  title: "Create issue",
  description:
    "Create an issue in a team and answer its identifier. Unknown labels are created. `blocks` / `blockedBy` " +
    "relate it to other issues in the same call.",
  input: {
    ...issueFields,
    blocks: identifiersInput.optional().describe("Issues the new one blocks."),
    blockedBy: identifiersInput.optional().describe("Issues that block the new one."),
    idempotencyKey: idempotencyKeyInput,
  },
  output: { issue: issueRow, related: z.array(z.string()), createdLabels: z.array(z.string()) },
  readOnly: false,
  destructive: false,
  idempotent: false,
  async run(input, { tracker, read, write, idempotencyKey }) {
    const { blocks = [], blockedBy = [], idempotencyKey: _key, ...fields } = input;
    const createdLabels = await labelsToCreate(tracker, fields.labels ?? [], read);
    const issue = await tracker.issues.create(createBody(fields), write(0));
    const row = toIssueRow(issue);
    const related: string[] = [];
    let n = 1;
    try {
      for (const other of blocks) {
        await tracker.issues.addRelation(issue.identifier, { issue: other, type: "blocks" }, write(n++));
        related.push(`blocks ${other}`);
      }
      for (const other of blockedBy) {
        await tracker.issues.addRelation(other, { issue: issue.identifier, type: "blocks" }, write(n++));
        related.push(`blocked_by ${other}`);
      }
    } catch (err) {
      return {
        isError: true,
        text:
          `Created ${issueLine(row)}${related.length ? ` (${related.join(", ")})` : ""}, but relating failed: ${briefError(err)}\n` +
          `Fix the identifier and call again with idempotencyKey "${idempotencyKey}" (the issue is not created twice), or use relate_issues.`,
        data: { issue: row, related, createdLabels },
      };
    }
    const lines = [`Created ${issueLine(row)}`, ...(related.length ? [related.join(", ")] : [])];
    lines.push(...createdLabelsLine(createdLabels));
    return { text: lines.join("\n"), data: { issue: row, related, createdLabels } };
  },
  about: (input) => ({
    team: input.team,
    state: input.state,
    assignee: input.assignee,
    project: input.project,
    identifier: input.parent,
  }),
});
