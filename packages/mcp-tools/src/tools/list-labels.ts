import { z } from "zod";
import { cursorInput, pageFooter, pageOutput, slicePage } from "../cursor.js";
import { limitInput } from "../inputs.js";
import { defineTool } from "../tool.js";

export const listLabelsTool = defineTool({
  name: "list_labels",
  title: "List labels",
  description:
    "The workspace's labels by name (issues take them by name). `counts: true` adds how many issues and open " +
    "issues carry each (admins only).",
  input: {
    counts: z.boolean().optional(),
    limit: limitInput(500, 200),
    cursor: cursorInput,
  },
  output: {
    labels: z.array(
      z.object({
        name: z.string(),
        color: z.string(),
        description: z.string().nullable(),
        issues: z.number().optional(),
        open: z.number().optional(),
      }),
    ),
    ...pageOutput,
  },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const all = await tracker.labels.list(input.counts ? { counts: "1" } : {}, read);
    const page = slicePage(all, input.cursor, input.limit, { counts: input.counts ?? false });
    const labels = page.items.map((l) => ({
      name: l.name,
      color: l.color,
      description: l.description,
      ...(l.issueCount === undefined ? {} : { issues: l.issueCount, open: l.openIssueCount ?? 0 }),
    }));
    const lines = labels.map(
      (l) =>
        `${l.name}${l.issues === undefined ? "" : ` (${l.issues} issues, ${l.open} open)`}${l.description ? `: ${l.description}` : ""}`,
    );
    if (labels.length) lines.push(pageFooter(labels.length, "label", page));
    return {
      text: lines.join("\n") || "No labels yet.",
      data: { labels, cursor: page.cursor, hasMore: page.hasMore },
    };
  },
});
