import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Make a workspace your key's active workspace",
  description: "Later calls without --workspace or TRACKER_WORKSPACE act in it. Accepts a slug, name or id.",
  args: ["slug"],
  options: {},
  examples: ["tracker workspaces use acme"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const workspace = await deps.tracker.workspaces.setActive(opts.slug, deps.call);
  // A workspace stored with the login would win over the key's active one: keep them in step.
  const config = deps.config.read();
  const stored = config.servers[deps.connection.baseUrl];
  if (stored?.workspace && stored.apiKey === deps.connection.apiKey) {
    stored.workspace = workspace.slug;
    deps.config.write(config);
  }
  if (opts.json) return printJson(deps, workspace);
  say(deps, `Now using ${workspace.name} (${workspace.slug})`);
}
