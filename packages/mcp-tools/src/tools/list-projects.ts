import { HEALTH_VALUES, PROJECT_SORTS, PROJECT_SPECIAL_FILTERS, PROJECT_STATUSES } from "@tracker/sdk";
import { z } from "zod";
import { cursorInput, decodeListCursor, listPageOf, pageFooter, pageOutput } from "../cursor.js";
import { initiativeRefInput, pageLimitInput } from "../inputs.js";
import { projectLine, projectRow, toProjectRow } from "../planning.js";
import { defineTool } from "../tool.js";

export const listProjectsTool = defineTool({
  name: "list_projects",
  title: "List projects",
  description:
    "Find projects; filters are ANDed, lists match any value. One line each: name [status] health progress, " +
    "lead, target date, teams.",
  input: {
    team: z.array(z.string().min(1)).optional().describe("Team keys; includes any."),
    status: z.array(z.enum(PROJECT_STATUSES)).optional(),
    health: z.array(z.enum(HEALTH_VALUES)).optional(),
    lead: z.array(z.string().min(1)).optional().describe("Emails, `me`, or `none`."),
    initiative: initiativeRefInput.optional(),
    special: z
      .array(z.enum(PROJECT_SPECIAL_FILTERS))
      .optional()
      .describe("All must hold. update_overdue: started, no status update for 7 days."),
    sort: z.enum(PROJECT_SORTS).optional().describe("`-` reverses; default -updated."),
    limit: pageLimitInput(50),
    cursor: cursorInput,
  },
  output: { projects: z.array(projectRow), ...pageOutput },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const { limit, cursor, ...query } = input;
    const at = decodeListCursor(cursor, query);
    const page = await tracker.projects.list({ ...query, limit, ...at }, read);
    const projects = page.items.map(toProjectRow);
    const paging = listPageOf(page, query);
    const text = projects.length
      ? [...projects.map(projectLine), pageFooter(projects.length, "project", paging)].join("\n")
      : "No projects match.";
    return { text, data: { projects, ...paging } };
  },
  about: (input) => ({ team: input.team, initiative: input.initiative }),
});
