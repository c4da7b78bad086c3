import { type Deps, defineCommand, type Opts } from "../../command.js";
import { confirmDeletion } from "../../input.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Delete a webhook endpoint with its delivery log (admins)",
  args: ["id"],
  options: {
    yes: { type: "boolean", short: "y", description: "Delete without asking (required without a terminal)" },
  },
  examples: ["tracker webhooks delete 0b9f2c1e-… --yes"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  await confirmDeletion(deps, opts.yes, `webhook ${opts.id}`);
  await deps.tracker.webhooks.delete(opts.id, deps.call);
  if (opts.json) return printJson(deps, { deleted: true, id: opts.id });
  say(deps, `Deleted webhook ${opts.id}`);
}
