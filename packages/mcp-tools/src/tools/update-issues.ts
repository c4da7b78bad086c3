import type { BodyOf } from "@tracker/sdk";
import { parsePriority } from "@tracker/sdk";
import { z } from "zod";
import { schema, text, texts, whole } from "../contract.js";
import { briefError, ToolRefusal } from "../errors.js";
import { dateInput, issueLines, issueRow, toIssueRow } from "../format.js";
import { cycleInput, identifiersInput, priorityInput, projectRefInput } from "../inputs.js";
import { createdLabelsLine, labelsToCreate, leftLine } from "../side-effects.js";
import { defineTool } from "../tool.js";

export const updateIssuesTool = defineTool({
  name: "update_issues",
  title: "Update issues",
  description:
    "Change one or many issues at once: the same changes apply to each. Only fields given change; `null` " +
    "clears. Assignee `none` unassigns. To change team use move_issues.",
  input: {
    identifiers: identifiersInput,
    state: z.string().min(1).optional().describe('State name, e.g. "Done".'),
    assignee: z.string().min(1).nullable().optional().describe("Email, id, `me`, or `none`."),
    priority: priorityInput.optional(),
    title: text(schema.IssueUpdate.title).optional(),
    description: text(schema.IssueUpdate.description)
      .nullable()
      .optional()
      .describe("Markdown; replaces the old one."),
    addLabels: texts(schema.IssueUpdate.addLabels).optional().describe("Unknown ones are created."),
    removeLabels: texts(schema.IssueUpdate.removeLabels).optional(),
    project: projectRefInput.nullable().optional(),
    cycle: cycleInput.nullable().optional(),
    dueDate: dateInput.nullable().optional(),
    estimate: whole(schema.IssueUpdate.estimate).nullable().optional(),
    parent: z.string().min(1).nullable().optional().describe("Parent issue identifier."),
    comment: text(schema.CommentBody.body).optional().describe("Markdown, posted on each issue updated."),
  },
  output: {
    updated: z.array(issueRow),
    failed: z.array(z.object({ identifier: z.string(), error: z.string() })),
    createdLabels: z.array(z.string()),
    left: z.array(z.string()),
    commented: z.array(z.string()),
  },
  readOnly: false,
  destructive: true,
  idempotent: true,
  async run(input, { tracker, read, write }) {
    const { identifiers, priority, assignee, comment, ...fields } = input;
    const body: BodyOf<"updateIssue"> = {};
    for (const [key, value] of Object.entries(fields))
      if (value !== undefined) Object.assign(body, { [key]: value });
    if (priority !== undefined) body.priority = parsePriority(priority)!;
    if (assignee !== undefined) body.assignee = assignee === "none" ? null : assignee;
    const changes = Object.keys(body).length > 0;
    if (!changes && comment === undefined)
      throw new ToolRefusal(
        "Nothing to change: give at least one of state, assignee, priority, title, description, addLabels, removeLabels, project, cycle, dueDate, estimate, parent, comment.",
      );
    const unique = [...new Set(identifiers.map((i) => i.toUpperCase()))];
    const updated: z.output<typeof issueRow>[] = [];
    const failed: { identifier: string; error: string }[] = [];
    const createdLabels = await labelsToCreate(tracker, body.addLabels ?? [], read);
    // A new project or cycle takes the issue out of its old one: read it first to say which.
    const moves = body.project !== undefined || body.cycle !== undefined;
    const left: string[] = [];
    const commented: string[] = [];
    // One request per issue (the API updates one at a time); a failure is reported and the rest still go.
    // The comment goes after the issue's update (its own key, after every update's), only when that worked.
    for (const [n, identifier] of unique.entries()) {
      try {
        const before = moves || !changes ? await tracker.issues.get(identifier, read) : undefined;
        const after = changes ? await tracker.issues.update(identifier, body, write(n)) : before!;
        if (comment !== undefined) {
          await tracker.comments.create(identifier, { body: comment }, write(unique.length + n));
          commented.push(after.identifier);
        }
        updated.push(toIssueRow(after));
        const moved = changes && before && leftLine(before, after);
        if (moved) left.push(moved);
      } catch (err) {
        if (unique.length === 1) throw err;
        failed.push({ identifier, error: briefError(err) });
      }
    }
    const lines = updated.length && changes ? ["Updated:", ...issueLines(updated)] : [];
    lines.push(...left, ...createdLabelsLine(updated.length ? createdLabels : []));
    if (commented.length) lines.push(`Commented on ${commented.join(", ")}.`);
    if (failed.length) lines.push("Failed:", ...failed.map((f) => `${f.identifier}: ${f.error}`));
    return {
      text: lines.join("\n"),
      data: { updated, failed, createdLabels: updated.length ? createdLabels : [], left, commented },
      isError: failed.length > 0,
    };
  },
  about: (input) => ({
    identifier: input.identifiers[0],
    state: input.state,
    assignee: input.assignee,
    project: input.project,
  }),
});
