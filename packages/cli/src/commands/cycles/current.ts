import { type Deps, defineCommand, type Opts, required } from "../../command.js";
import { printJson, printTable } from "../../output.js";
import { pickTeam } from "../../resolve.js";
import { cycleColumns } from "./columns.js";
import { findCycle } from "./find.js";

export const spec = defineCommand({
  summary: "Show a team's active cycle",
  description: "Exits 1 when the team has no active cycle.",
  args: [],
  options: {
    team: { type: "string", short: "t", value: "KEY", description: "Team key (required)", complete: "teams" },
  },
  examples: ["tracker cycles current --team ENG", "tracker issues list --team ENG --cycle current"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const team = await required(deps, "team", opts.team, () => pickTeam(deps));
  const cycle = await findCycle(deps, "current", team);
  if (opts.json) return printJson(deps, cycle);
  printTable(deps, [cycle], cycleColumns);
}
