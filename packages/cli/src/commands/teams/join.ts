import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Join a team",
  args: ["team"],
  options: {},
  examples: ["tracker teams list --all", "tracker teams join DES"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  await deps.tracker.teams.join(opts.team, deps.call);
  if (opts.json) return printJson(deps, { joined: true, team: opts.team.toUpperCase() });
  say(deps, `Joined ${opts.team.toUpperCase()}`);
}
