import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Rename the workspace you act in (admins)",
  args: ["name"],
  options: {},
  examples: ['tracker workspaces rename "Acme Inc."', 'tracker -w acme workspaces rename "Acme Inc."'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  await deps.tracker.workspaces.update({ name: opts.name }, deps.call);
  if (opts.json) return printJson(deps, { name: opts.name });
  say(deps, `Renamed the workspace to ${opts.name}`);
}
