import { z } from "zod";
import { cursorInput, pageFooter, pageOutput, slicePage } from "../cursor.js";
import { shortTime } from "../format.js";
import { limitInput, updateSubjectInput } from "../inputs.js";
import { toUpdateRow, updateRow } from "../planning.js";
import { defineTool } from "../tool.js";
import { subjectOf } from "../updates.js";

const candidatesOutput = z.object({
  since: z.string(),
  issues: z.array(
    z.object({
      identifier: z.string(),
      title: z.string(),
      completedAt: z.string(),
      assignee: z.string().nullable(),
    }),
  ),
});

export const listStatusUpdatesTool = defineTool({
  name: "list_status_updates",
  title: "List status updates",
  description:
    "Status updates of one team, project or initiative, newest first. `candidates: true` adds the issues " +
    "completed since the latest update: material for the next one.",
  input: {
    ...updateSubjectInput,
    candidates: z.boolean().optional(),
    limit: limitInput(50, 5),
    cursor: cursorInput,
  },
  output: {
    updates: z.array(updateRow),
    candidates: candidatesOutput.optional(),
    ...pageOutput,
  },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const { query, label } = subjectOf(input);
    const [all, found] = await Promise.all([
      tracker.updates.list(query, read),
      input.candidates ? tracker.updates.candidates(query, read) : Promise.resolve(undefined),
    ]);
    const page = slicePage(all, input.cursor, input.limit, query);
    const updates = page.items.map(toUpdateRow);
    const lines = updates.map(
      (u) =>
        `${shortTime(u.createdAt)} ${u.health} "${u.title}" by ${u.author}${u.issues.length ? ` (${u.issues.join(", ")})` : ""}`,
    );
    if (!lines.length) lines.push(`No status updates on ${label} yet.`);
    if (page.hasMore) lines.push(pageFooter(updates.length, "update", page));
    let candidates: z.output<typeof candidatesOutput> | undefined;
    if (found) {
      candidates = {
        since: found.since.at,
        issues: found.issues.map((i) => ({
          identifier: i.identifier,
          title: i.title,
          completedAt: i.completedAt,
          assignee: i.assignee,
        })),
      };
      lines.push("", `Completed since ${shortTime(found.since.at)} (${found.issues.length}):`);
      for (const i of candidates.issues)
        lines.push(`  ${i.identifier} ${i.title}${i.assignee ? ` (${i.assignee})` : ""}`);
    }
    return {
      text: lines.join("\n"),
      data: { updates, ...(candidates ? { candidates } : {}), cursor: page.cursor, hasMore: page.hasMore },
    };
  },
  about: (input) => ({ team: input.team, project: input.project, initiative: input.initiative }),
});
