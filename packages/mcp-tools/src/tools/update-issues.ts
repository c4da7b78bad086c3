import type { BodyOf } from "@tracker/sdk";
import { parsePriority } from "@tracker/sdk";
import { z } from "zod";
import { briefError, ToolRefusal } from "../errors.js";
import { dateInput, issueLines, issueRow, toIssueRow } from "../format.js";
import { cycleInput, identifiersInput, priorityInput, projectRefInput } from "../inputs.js";
import { defineTool } from "../tool.js";

const labelNames = z.array(z.string().min(1).max(100)).max(50);

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
    title: z.string().min(1).max(255).optional(),
    description: z.string().max(100_000).nullable().optional().describe("Markdown; replaces the old one."),
    addLabels: labelNames.optional().describe("Unknown ones are created."),
    removeLabels: labelNames.optional(),
    project: projectRefInput.nullable().optional(),
    cycle: cycleInput.nullable().optional(),
    dueDate: dateInput.nullable().optional(),
    estimate: z.number().int().min(0).max(1000).nullable().optional(),
    parent: z.string().min(1).nullable().optional().describe("Parent issue identifier."),
  },
  output: {
    updated: z.array(issueRow),
    failed: z.array(z.object({ identifier: z.string(), error: z.string() })),
  },
  readOnly: false,
  destructive: true,
  idempotent: true,
  async run(input, { tracker, write }) {
    const { identifiers, priority, assignee, ...fields } = input;
    const body: BodyOf<"updateIssue"> = {};
    for (const [key, value] of Object.entries(fields))
      if (value !== undefined) Object.assign(body, { [key]: value });
    if (priority !== undefined) body.priority = parsePriority(priority)!;
    if (assignee !== undefined) body.assignee = assignee === "none" ? null : assignee;
    if (Object.keys(body).length === 0)
      throw new ToolRefusal(
        "Nothing to change: give at least one of state, assignee, priority, title, description, addLabels, removeLabels, project, cycle, dueDate, estimate, parent.",
      );
    const unique = [...new Set(identifiers.map((i) => i.toUpperCase()))];
    const updated: z.output<typeof issueRow>[] = [];
    const failed: { identifier: string; error: string }[] = [];
    // One request per issue (the API updates one at a time); a failure is reported and the rest still go.
    for (const [n, identifier] of unique.entries()) {
      try {
        updated.push(toIssueRow(await tracker.issues.update(identifier, body, write(n))));
      } catch (err) {
        if (unique.length === 1) throw err;
        failed.push({ identifier, error: briefError(err) });
      }
    }
    const lines = updated.length ? ["Updated:", ...issueLines(updated)] : [];
    if (failed.length) lines.push("Failed:", ...failed.map((f) => `${f.identifier}: ${f.error}`));
    return { text: lines.join("\n"), data: { updated, failed }, isError: failed.length > 0 };
  },
  about: (input) => ({
    identifier: input.identifiers[0],
    state: input.state,
    assignee: input.assignee,
    project: input.project,
  }),
});
