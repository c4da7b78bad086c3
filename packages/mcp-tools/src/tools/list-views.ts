import { z } from "zod";
import { defineTool } from "../tool.js";

function filterText(filters: Record<string, unknown>): string {
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
  input: {},
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
  },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(_input, { tracker, read }) {
    const views = (await tracker.views.list(read)).map((v) => ({
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
    return { text: lines.join("\n") || "No saved views.", data: { views } };
  },
});
