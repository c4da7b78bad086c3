import { type Deps, defineCommand, type Opts, required } from "../../command.js";
import { printList } from "../../output.js";
import { pickTeam } from "../../resolve.js";
import { cycleColumns } from "./columns.js";

export const spec = defineCommand({
  summary: "List a team's cycles, newest first",
  args: [],
  options: {
    team: { type: "string", short: "t", value: "KEY", description: "Team key (required)", complete: "teams" },
  },
  examples: ["tracker cycles list --team ENG"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const team = await required(deps, "team", opts.team, () => pickTeam(deps));
  const cycles = await deps.tracker.cycles.list(team, deps.call);
  await printList(
    deps,
    opts,
    cycles,
    cycleColumns,
    `Team ${team} has no cycles yet; start one with 'tracker cycles create'.`,
  );
}
