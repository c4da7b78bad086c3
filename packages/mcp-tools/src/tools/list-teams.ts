import { z } from "zod";
import { cursorInput, pageFooter, pageOutput, slicePage } from "../cursor.js";
import { limitInput } from "../inputs.js";
import { defineTool } from "../tool.js";

export const listTeamsTool = defineTool({
  name: "list_teams",
  title: "List teams",
  description:
    "Your teams: key (as in `ENG-123`), name, and workflow states in order with their types; state names are " +
    "what `state` takes. `all: true` adds the workspace's teams you have not joined.",
  input: {
    all: z.boolean().optional().describe("Also teams you have not joined."),
    limit: limitInput(200, 100),
    cursor: cursorInput,
  },
  output: {
    teams: z.array(
      z.object({
        key: z.string(),
        name: z.string(),
        joined: z.boolean(),
        cyclesEnabled: z.boolean().nullable(),
        states: z.array(z.object({ name: z.string(), type: z.string() })),
      }),
    ),
    ...pageOutput,
  },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const [mine, others] = await Promise.all([
      tracker.teams.list(read),
      input.all ? tracker.teams.listAll(read) : Promise.resolve([]),
    ]);
    const joinedKeys = new Set(mine.map((t) => t.key));
    const listed = [
      ...mine.map((t) => ({
        key: t.key,
        name: t.personal ? `${t.name} (personal)` : t.name,
        joined: true,
        cyclesEnabled: t.cyclesEnabled,
        states: t.states.map((s) => ({ name: s.name, type: s.type })),
      })),
      ...others
        .filter((t) => !joinedKeys.has(t.key))
        .map((t) => ({ key: t.key, name: t.name, joined: false, cyclesEnabled: null, states: [] })),
    ];
    const page = slicePage(listed, input.cursor, input.limit, { all: input.all ?? false });
    const teams = page.items;
    const lines = teams.map((t) =>
      t.joined
        ? `${t.key} ${t.name}${t.cyclesEnabled ? " · cycles" : ""} · states: ${t.states.map((s) => `${s.name} (${s.type})`).join(", ")}`
        : `${t.key} ${t.name} · not joined`,
    );
    if (teams.length && page.hasMore) lines.push(pageFooter(teams.length, "team", page));
    return {
      text: lines.join("\n") || "No teams yet.",
      data: { teams, cursor: page.cursor, hasMore: page.hasMore },
    };
  },
});
