import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  name: "workspaces use",
  summary: "Make a workspace your key's active workspace",
  description: "Later calls without --workspace or TRACKER_WORKSPACE act in it. Accepts a slug, name or id.",
  args: ["workspace"],
  options: {},
  examples: ["tracker workspaces use acme"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const workspace = await deps.tracker.workspaces.setActive(opts.workspace);
  if (opts.json) return printJson(deps, workspace);
  say(deps, `Now using ${workspace.name} (${workspace.slug})`);
}
