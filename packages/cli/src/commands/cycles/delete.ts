import { type Deps, defineCommand, type Opts } from "../../command.js";
import { confirmDeletion } from "../../input.js";
import { printJson, say } from "../../output.js";
import { findCycle } from "./find.js";

export const spec = defineCommand({
  summary: "Delete a cycle; its issues stay, without a cycle",
  args: ["cycle"],
  options: {
    team: {
      type: "string",
      short: "t",
      value: "KEY",
      description: "Team key, to name the cycle by number",
      complete: "teams",
    },
    yes: { type: "boolean", short: "y", description: "Delete without asking (required without a terminal)" },
  },
  examples: ["tracker cycles delete 12 --team ENG --yes"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const cycle = await findCycle(deps, opts.cycle, opts.team);
  await confirmDeletion(
    deps,
    opts.yes,
    `cycle ${cycle.number ?? opts.cycle}${opts.team ? ` of ${opts.team}` : ""}`,
  );
  await deps.tracker.cycles.delete(cycle.id, deps.call);
  if (opts.json) return printJson(deps, { deleted: true, id: cycle.id });
  say(deps, `Deleted cycle ${cycle.number ?? opts.cycle}`);
}
