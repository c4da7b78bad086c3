import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList } from "../../output.js";

export const spec = defineCommand({
  summary: "List the workspaces your key can reach",
  description: "The active workspace is marked with *; calls without --workspace act in it.",
  args: [],
  options: {},
  examples: ["tracker workspaces list"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const workspaces = await deps.tracker.workspaces.list(deps.call);
  await printList<Schemas["WorkspaceMembership"]>(deps, opts, workspaces, [
    { header: "", value: (w) => (w.isActive ? "*" : ""), style: (_, c) => c.green },
    { header: "SLUG", value: (w) => w.slug, style: (w, c) => (w.isActive ? c.bold : (t) => t) },
    { header: "NAME", value: (w) => w.name },
    { header: "ROLE", value: (w) => w.role },
  ]);
}
