import type { BodyOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, positiveInt, required } from "../../command.js";
import { printJson, say } from "../../output.js";

export const ESTIMATE_SCALES = ["none", "linear", "fibonacci", "exponential", "tshirt"] as const;

export const spec = defineCommand({
  summary: "Create a team; you join it",
  description: "It starts with the states Backlog, Todo, In Progress, In Review, Done and Canceled.",
  args: [],
  options: {
    name: { type: "string", short: "n", value: "NAME", description: "Team name (required)" },
    key: {
      type: "string",
      short: "k",
      value: "KEY",
      description: "Key: 1-7 capitals and digits, e.g. ENG (required)",
    },
    personal: { type: "boolean", description: "Your personal space instead of a team" },
    cycles: { type: "boolean", description: "Turn cycles on" },
    cycleWeeks: { type: "string", value: "N", description: "Cycle length in weeks (1-8, default 2)" },
    estimates: {
      type: "string",
      value: "SCALE",
      description: "Estimate scale (default none)",
      choices: ESTIMATE_SCALES,
    },
  },
  examples: ['tracker teams create --name "Engineering" --key ENG --cycles --estimates fibonacci'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const name = await required(deps, "name", opts.name, () => deps.prompt.input("Team name"));
  const key = await required(deps, "key", opts.key, () =>
    deps.prompt.input("Key", {
      default: name
        .replace(/[^A-Za-z0-9]/g, "")
        .slice(0, 3)
        .toUpperCase(),
    }),
  );
  const body: BodyOf<"createTeam"> = { name, key };
  if (opts.personal) body.personal = true;
  if (opts.cycles) body.cyclesEnabled = true;
  if (opts.cycleWeeks) body.cycleLengthWeeks = positiveInt("cycle-weeks", opts.cycleWeeks);
  if (opts.estimates) body.estimateScale = opts.estimates as BodyOf<"createTeam">["estimateScale"];
  const team = await deps.tracker.teams.create(body, deps.call);
  if (opts.json) return printJson(deps, team);
  if (deps.isTTY) say(deps, `Created team ${team.name} (${team.key})`);
  deps.stdout.write(`${team.key}\n`);
}
