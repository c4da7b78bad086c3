import {
  type BodyOf,
  LIST_FILTERS,
  type ListKind,
  PRIORITY_NAMES,
  readListFilters,
  VIEW_KINDS,
} from "@tracker/sdk";
import { z } from "zod";
import { oneOf, schema, text } from "../contract.js";
import { nameList, ToolRefusal } from "../errors.js";
import { teamInput } from "../inputs.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";
import { filterText } from "./list-views.js";

const filterValue = z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]);

/**
 * The contract's view filters take priorities by name; agents read them as numbers in search_issues' lines
 * (P1 urgent … P4 low, P- none), so a number 0-4 is taken as the name it stands for.
 */
function priorityNames(filters: Record<string, unknown>): Record<string, unknown> {
  const { priority } = filters;
  if (!Array.isArray(priority)) return filters;
  const named = priority.map((p) => (typeof p === "number" ? (PRIORITY_NAMES[p] ?? String(p)) : p));
  return { ...filters, priority: named };
}

export const saveViewTool = defineTool({
  name: "save_view",
  title: "Save a view",
  description:
    "Save a named set of filters (search_issues runs it as `view`), or change the `view` named. `filters` " +
    "keys are the API's list query names: label (not labels), q, stateType, special, assignee…; relative " +
    'dates (dueBefore: "+14d", -7d, today) stay relative.',
  input: {
    name: text(schema.ViewCreate.name),
    view: z.string().min(1).optional().describe("The view to change; omit to create."),
    kind: oneOf({ enum: VIEW_KINDS }).optional().describe("Default issues."),
    team: teamInput.nullable().optional(),
    filters: z.record(z.string(), filterValue).optional(),
    sort: z.string().min(1).nullable().optional().describe("e.g. -priority"),
    favorite: z.boolean().optional(),
    idempotencyKey: idempotencyKeyInput,
  },
  output: {
    view: z.object({
      id: z.string(),
      name: z.string(),
      kind: z.string(),
      team: z.string().nullable(),
      filters: z.record(z.string(), z.unknown()),
      sort: z.string().nullable(),
      favorite: z.boolean(),
    }),
    created: z.boolean(),
  },
  readOnly: false,
  destructive: true,
  idempotent: false,
  async run(input, { tracker, read, write }) {
    const existing = input.view
      ? await (async () => {
          const views = await tracker.views.list(read);
          const ref = input.view!.toLowerCase();
          const found = views.find((v) => v.id === input.view || v.name.toLowerCase() === ref);
          if (!found)
            throw new ToolRefusal(
              `No saved view named "${input.view}". Your views: ${nameList(views.map((v) => v.name))}.`,
            );
          return found;
        })()
      : undefined;
    const kind = (existing?.kind ?? input.kind ?? "issues") as ListKind;
    let filters: Record<string, unknown> | undefined;
    if (input.filters) {
      const allowed = LIST_FILTERS[kind] as readonly string[];
      const unknown = Object.keys(input.filters).filter((k) => !allowed.includes(k));
      if (unknown.length)
        throw new ToolRefusal(
          `A saved view of ${kind} cannot filter by ${unknown.join(", ")}; its filters are: ${allowed.join(", ")}.`,
        );
      filters = readListFilters(kind, kind === "issues" ? priorityNames(input.filters) : input.filters);
      const dropped = Object.keys(input.filters).filter((k) => !(k in filters!));
      if (dropped.length)
        throw new ToolRefusal(
          `Filter values not allowed for ${dropped.join(", ")}: check them against search_issues' choices.`,
        );
    }
    const fields = {
      ...(filters ? { filters } : {}),
      ...(input.team !== undefined ? { team: input.team } : {}),
      ...(input.sort !== undefined ? { sort: input.sort as BodyOf<"createView">["sort"] } : {}),
      ...(input.favorite !== undefined ? { favorite: input.favorite } : {}),
    };
    const view = existing
      ? await tracker.views.update(existing.id, { name: input.name, ...fields }, write())
      : await tracker.views.create({ name: input.name, kind, ...fields } as BodyOf<"createView">, write());
    const row = {
      id: view.id,
      name: view.name,
      kind: view.kind,
      team: view.team,
      filters: view.filters,
      sort: view.sort,
      favorite: view.favorite,
    };
    const said = `${row.name} (${row.kind}${row.team ? `, team ${row.team}` : ""})${Object.keys(row.filters).length ? ` ${filterText(row.filters)}` : ""}${row.sort ? ` sort ${row.sort}` : ""}`;
    return {
      text: `${existing ? "Saved" : "Created"} view ${said}.${kind === "issues" ? ` search_issues {"view":"${row.name}"} runs it.` : ""}`,
      data: { view: row, created: !existing },
    };
  },
  about: (input) => ({ team: input.team ?? undefined }),
});
