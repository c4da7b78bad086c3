import { z } from "zod";
import { cursorInput, pageFooter, pageOutput, slicePage } from "../cursor.js";
import { limitInput } from "../inputs.js";
import { defineTool } from "../tool.js";

export function filterText(filters: Record<string, unknown>): string {
  return Object.entries(filters)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join(",") : String(value)}`)
    .join(" ");
}

export const listViewsTool = defineTool({
  name: "list_views",
  title: "List saved views",
  description:
    "Your saved views (favorites first) with their filters and sort. search_issues takes an issue view's name " +
    "as `view`.",
  input: { limit: limitInput(200, 100), cursor: cursorInput },
  output: {
    views: z.array(
      z.object({
        name: z.string(),
        kind: z.string(),
        team: z.string().nullable(),
        filters: z.record(z.string(), z.unknown()),
        sort: z.string().nullable(),
        favorite: z.boolean(),
      }),
    ),
    ...pageOutput,
  },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const page = slicePage(await tracker.views.list(read), input.cursor, input.limit, {});
    const views = page.items.map((v) => ({
      name: v.name,
      kind: v.kind,
      team: v.team,
      filters: v.filters,
      sort: v.sort,
      favorite: v.favorite,
    }));
    const lines = views.map(
      (v) =>
        `${v.favorite ? "★ " : ""}${v.name} (${v.kind}${v.team ? `, team ${v.team}` : ""})${Object.keys(v.filters).length ? ` ${filterText(v.filters)}` : ""}${v.sort ? ` sort ${v.sort}` : ""}`,
    );
    if (page.hasMore) lines.push(pageFooter(views.length, "view", page));
    return {
      text: lines.join("\n") || "No saved views.",
      data: { views, cursor: page.cursor, hasMore: page.hasMore },
    };
  },
});
