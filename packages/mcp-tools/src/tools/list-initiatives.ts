import {
  HEALTH_VALUES,
  INITIATIVE_SORTS,
  INITIATIVE_SPECIAL_FILTERS,
  INITIATIVE_STATUSES,
} from "@tracker/sdk";
import { z } from "zod";
import { cursorInput, decodeListCursor, listPageOf, pageFooter, pageOutput } from "../cursor.js";
import { pageLimitInput } from "../inputs.js";
import { initiativeLine, initiativeRow, toInitiativeRow } from "../planning.js";
import { defineTool } from "../tool.js";

export const listInitiativesTool = defineTool({
  name: "list_initiatives",
  title: "List initiatives",
  description:
    "Find initiatives (groups of projects); filters are ANDed, lists match any value. One line each: name " +
    "[status] health progress, lead, target date.",
  input: {
    status: z.array(z.enum(INITIATIVE_STATUSES)).optional(),
    health: z.array(z.enum(HEALTH_VALUES)).optional(),
    lead: z.array(z.string().min(1)).optional().describe("Emails, `me`, or `none`."),
    special: z.array(z.enum(INITIATIVE_SPECIAL_FILTERS)).optional().describe("All must hold."),
    sort: z.enum(INITIATIVE_SORTS).optional().describe("`-` reverses; default -updated."),
    limit: pageLimitInput(50),
    cursor: cursorInput,
  },
  output: { initiatives: z.array(initiativeRow), ...pageOutput },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const { limit, cursor, ...query } = input;
    const at = decodeListCursor(cursor, query);
    const page = await tracker.initiatives.list({ ...query, limit, ...at }, read);
    const initiatives = page.items.map(toInitiativeRow);
    const paging = listPageOf(page, query);
    const text = initiatives.length
      ? [...initiatives.map(initiativeLine), pageFooter(initiatives.length, "initiative", paging)].join("\n")
      : "No initiatives match.";
    return { text, data: { initiatives, ...paging } };
  },
});
