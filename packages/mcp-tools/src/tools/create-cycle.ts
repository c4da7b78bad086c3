import { z } from "zod";
import { dateTimeInput, shortTime } from "../format.js";
import { teamInput } from "../inputs.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";

export const createCycleTool = defineTool({
  name: "create_cycle",
  title: "Start a cycle",
  description:
    "Start a team's next cycle (default: from the end of the latest, for the team's cycle length). Rollover " +
    "(default on) moves the previous cycle's unfinished issues into it.",
  input: {
    team: teamInput,
    name: z.string().max(100).optional(),
    startsAt: dateTimeInput.optional(),
    endsAt: dateTimeInput.optional(),
    rollover: z.boolean().optional().describe("Default true."),
    idempotencyKey: idempotencyKeyInput,
  },
  output: {
    cycle: z.object({
      number: z.number(),
      name: z.string().nullable(),
      startsAt: z.string(),
      endsAt: z.string(),
    }),
    rolledOver: z.number(),
  },
  readOnly: false,
  destructive: false,
  idempotent: false,
  async run(input, { tracker, write }) {
    const { idempotencyKey: _key, ...body } = input;
    const { cycle, rolledOver } = await tracker.cycles.create(body, write());
    const c = { number: cycle.number, name: cycle.name, startsAt: cycle.startsAt, endsAt: cycle.endsAt };
    return {
      text: `Started ${input.team.toUpperCase()} cycle ${c.number}${c.name ? ` "${c.name}"` : ""} ${shortTime(c.startsAt)} → ${shortTime(c.endsAt)}; ${rolledOver} unfinished issues rolled over.`,
      data: { cycle: c, rolledOver },
    };
  },
  about: (input) => ({ team: input.team }),
});
