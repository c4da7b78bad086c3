import { z } from "zod";
import { schema, text } from "../contract.js";
import { dateTimeInput, shortTime } from "../format.js";
import { teamInput } from "../inputs.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";

export const createCycleTool = defineTool({
  name: "create_cycle",
  title: "Start the next cycle",
  description:
    "Start a team's next cycle: without startsAt it starts now and a running cycle ends now; the previous " +
    "cycle's unfinished issues move in unless rollover is false. Plan ahead: startsAt and rollover false.",
  input: {
    team: teamInput,
    name: text(schema.CycleCreate.name).optional(),
    startsAt: dateTimeInput.optional(),
    endsAt: dateTimeInput.optional(),
    rollover: z.boolean().optional().describe("Default true. false: leave the unfinished issues."),
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
    previous: z.object({ number: z.number(), endsAt: z.string(), ended: z.boolean() }).nullable(),
  },
  readOnly: false,
  destructive: false,
  idempotent: false,
  role: "member",
  async run(input, { tracker, write }) {
    const { idempotencyKey: _key, ...fields } = input;
    const team = input.team.toUpperCase();
    // The server ends a running cycle and rolls over in the same transaction (the contract's createCycle).
    const { cycle, rolledOver, previous, endedPrevious } = await tracker.cycles.create(
      { ...fields, team },
      write(),
    );
    const c = { number: cycle.number, name: cycle.name, startsAt: cycle.startsAt, endsAt: cycle.endsAt };
    // The server's "now" is a moment after ours: a cycle starting within a second of the call starts now.
    const starts = Date.parse(c.startsAt) <= Date.now() + 1_000 ? "started" : "created";
    const named = `${team} cycle ${c.number}${c.name ? ` "${c.name}"` : ""} ${shortTime(c.startsAt)} → ${shortTime(c.endsAt)}`;
    const parts = [
      ...(endedPrevious && previous ? [`Ended cycle ${previous.number}`] : []),
      `${starts} ${named}`,
      !previous
        ? "it is the team's first cycle"
        : input.rollover === false
          ? `cycle ${previous.number} keeps its unfinished issues`
          : `${rolledOver} unfinished issue${rolledOver === 1 ? "" : "s"} moved from cycle ${previous.number}`,
    ];
    const line = parts.join(", ");
    return {
      text: `${line.charAt(0).toUpperCase()}${line.slice(1)}.`,
      data: {
        cycle: c,
        rolledOver,
        previous: previous
          ? {
              number: previous.number,
              endsAt: previous.endsAt,
              ended: Date.parse(previous.endsAt) <= Date.parse(c.startsAt),
            }
          : null,
      },
    };
  },
  about: (input) => ({ team: input.team }),
});
