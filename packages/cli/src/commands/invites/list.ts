import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, printTable, relativeTime } from "../../output.js";

export const spec = defineCommand({
  name: "invites list",
  summary: "List the workspace's open invites",
  args: [],
  options: {},
  examples: ["tracker invites list"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const invites = await deps.tracker.invites.list();
  if (opts.json) return printJson(deps, invites);
  printTable(deps, invites, [
    { header: "ID", value: (i) => i.id },
    { header: "EMAIL", value: (i) => i.email },
    { header: "ROLE", value: (i) => i.role },
    { header: "EXPIRES", value: (i) => i.expiresAt, tty: (i) => relativeTime(i.expiresAt) },
  ]);
}
