import { type Deps, defineCommand, type Opts } from "../../command.js";
import { confirmDeletion } from "../../input.js";
import { printJson, say } from "../../output.js";
import { findView } from "./filters.js";

export const spec = defineCommand({
  summary: "Delete one of your saved views (by name or id)",
  args: ["view"],
  options: {
    yes: { type: "boolean", short: "y", description: "Delete without asking (required without a terminal)" },
  },
  examples: ['tracker views delete "My overdue" --yes'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const view = await findView(deps, opts.view);
  await confirmDeletion(deps, opts.yes, `view "${view.name}"`);
  await deps.tracker.views.delete(view.id, deps.call);
  if (opts.json) return printJson(deps, { deleted: true, id: view.id });
  say(deps, `Deleted view "${view.name}"`);
}
