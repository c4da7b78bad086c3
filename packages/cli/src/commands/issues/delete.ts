import { type Deps, defineCommand, type Opts } from "../../command.js";
import { confirmDeletion } from "../../input.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Delete an issue for good, with its comments, relations and history (admins or its creator)",
  args: ["id"],
  options: {
    yes: { type: "boolean", short: "y", description: "Delete without asking (required without a terminal)" },
  },
  examples: ["tracker issues delete ENG-123 --yes"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const id = opts.id.toUpperCase();
  await confirmDeletion(deps, opts.yes, `issue ${id} with its comments and history`);
  await deps.tracker.issues.delete(opts.id, deps.call);
  if (opts.json) return printJson(deps, { deleted: true, identifier: id });
  say(deps, `Deleted ${id}`);
}
