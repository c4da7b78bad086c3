import type { BodyOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, positiveInt, UsageError } from "../../command.js";
import { printJson, say } from "../../output.js";
import { ESTIMATE_SCALES } from "./create.js";

export const spec = defineCommand({
  summary: "Change a team's name, key, cycles or estimates",
  description: "A new key re-prefixes every issue identifier; the old ones keep working.",
  args: ["team"],
  options: {
    name: { type: "string", short: "n", value: "NAME", description: "New name" },
    key: { type: "string", short: "k", value: "KEY", description: "New key" },
    cycles: { type: "boolean", description: "Turn cycles on" },
    noCycles: { type: "boolean", description: "Turn cycles off (existing cycles stay)" },
    cycleWeeks: { type: "string", value: "N", description: "Cycle length in weeks (1-8)" },
    estimates: { type: "string", value: "SCALE", description: "Estimate scale", choices: ESTIMATE_SCALES },
  },
  examples: ["tracker teams edit ENG --cycles --cycle-weeks 1", "tracker teams edit ENG --key CORE"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const body: BodyOf<"updateTeam"> = {};
  if (opts.name) body.name = opts.name;
  if (opts.key) body.key = opts.key;
  if (opts.cycles && opts.noCycles) throw new UsageError("give --cycles or --no-cycles, not both");
  if (opts.cycles) body.cyclesEnabled = true;
  if (opts.noCycles) body.cyclesEnabled = false;
  if (opts.cycleWeeks) body.cycleLengthWeeks = positiveInt("cycle-weeks", opts.cycleWeeks);
  if (opts.estimates) body.estimateScale = opts.estimates as BodyOf<"updateTeam">["estimateScale"];
  if (Object.keys(body).length === 0) {
    throw new UsageError(
      "nothing to change; pass --name, --key, --cycles, --no-cycles, --cycle-weeks or --estimates",
    );
  }
  await deps.tracker.teams.update(opts.team, body, deps.call);
  const key = body.key ?? opts.team.toUpperCase();
  if (opts.json) return printJson(deps, { key, ...body });
  if (deps.isTTY) say(deps, `Updated team ${key}`);
  deps.stdout.write(`${key}\n`);
}
