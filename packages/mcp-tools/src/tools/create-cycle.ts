import { z } from "zod";
import { schema, text } from "../contract.js";
import { ToolRefusal } from "../errors.js";
import { dateTimeInput, shortTime } from "../format.js";
import { teamInput } from "../inputs.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";

const OPEN = ["backlog", "unstarted", "started"] as const;

export const createCycleTool = defineTool({
  name: "create_cycle",
  title: "Create the next cycle",
  description:
    "Create a team's next cycle (default: from the end of the latest, for the team's cycle length). As in " +
    "Linear, unfinished issues roll over when a cycle ends: only when the previous cycle has ended are its " +
    "open issues moved into the new one; a running cycle keeps them.",
  input: {
    team: teamInput,
    name: text(schema.CycleCreate.name).optional(),
    startsAt: dateTimeInput.optional(),
    endsAt: dateTimeInput.optional(),
    rollover: z
      .boolean()
      .optional()
      .describe("Default: true when the previous cycle has ended. false: never."),
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
    previous: z
      .object({ number: z.number(), endsAt: z.string(), running: z.boolean(), unfinished: z.number() })
      .nullable(),
  },
  readOnly: false,
  destructive: false,
  idempotent: false,
  role: "member",
  async run(input, { tracker, read, write }) {
    const { idempotencyKey: _key, rollover: asked, ...fields } = input;
    const team = input.team.toUpperCase();
    // The server rolls over only a previous cycle that has ended (the contract's createCycle); the tool
    // reads that cycle first to say which happened, and refuses an explicit rollover of a running one.
    const [latest] = await tracker.cycles.list(team, read);
    const now = Date.now();
    const running = latest !== undefined && Date.parse(latest.endsAt) > now;
    if (running && asked === true)
      throw new ToolRefusal(
        `Cycle ${latest.number} runs until ${shortTime(latest.endsAt)}: its unfinished issues roll over when it ends, ` +
          "not into a cycle that starts later. Create the next cycle without `rollover` now, and move them with " +
          "update_issues `cycle` once it has ended.",
      );
    const rollover = asked ?? !running;
    const { cycle, rolledOver } = await tracker.cycles.create({ ...fields, team, rollover }, write());
    let unfinished = rolledOver;
    if (latest && !rollover) {
      const open = await tracker.issues.list(
        { team, cycle: latest.number, stateType: [...OPEN], limit: 200 },
        read,
      );
      unfinished = open.items.length;
    }
    const c = { number: cycle.number, name: cycle.name, startsAt: cycle.startsAt, endsAt: cycle.endsAt };
    // The server's "now" is a moment after ours: a cycle starting within a second of the call starts now.
    const starts = Date.parse(c.startsAt) <= Date.now() + 1_000 ? "Started" : "Created";
    const head = `${starts} ${team} cycle ${c.number}${c.name ? ` "${c.name}"` : ""} ${shortTime(c.startsAt)} → ${shortTime(c.endsAt)}`;
    let tail: string;
    if (!latest) tail = "; it is the team's first cycle.";
    else if (rollover)
      tail = `; ${rolledOver} unfinished issues rolled over from cycle ${latest.number}, which ended ${shortTime(latest.endsAt)}.`;
    else if (running)
      tail = `; cycle ${latest.number} runs until ${shortTime(latest.endsAt)} and keeps its ${unfinished} unfinished issues (move them with update_issues \`cycle\` once it has ended).`;
    else tail = `; no issues rolled over (cycle ${latest.number} keeps its ${unfinished} unfinished ones).`;
    return {
      text: head + tail,
      data: {
        cycle: c,
        rolledOver,
        previous: latest ? { number: latest.number, endsAt: latest.endsAt, running, unfinished } : null,
      },
    };
  },
  about: (input) => ({ team: input.team }),
});
