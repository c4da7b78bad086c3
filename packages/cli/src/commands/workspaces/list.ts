import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, printTable } from "../../output.js";

export const spec = defineCommand({
  name: "workspaces list",
  summary: "List the workspaces your key can reach",
  description: "The active workspace is marked with *; calls without --workspace act in it.",
  args: [],
  options: {},
  examples: ["tracker workspaces list"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const workspaces = await deps.tracker.workspaces.list();
  if (opts.json) return printJson(deps, workspaces);
  printTable(deps, workspaces, [
    { header: "", value: (w) => (w.isActive ? "*" : "") },
    { header: "SLUG", value: (w) => w.slug },
    { header: "NAME", value: (w) => w.name },
    { header: "ROLE", value: (w) => w.role },
  ]);
}
