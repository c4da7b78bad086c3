import { type Deps, defineCommand, type Opts } from "../../command.js";
import { confirmDeletion } from "../../input.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Revoke one of your API keys",
  description: "The key stops working at once. Find ids with 'tracker keys list'.",
  args: ["id"],
  options: {
    yes: { type: "boolean", short: "y", description: "Revoke without asking (required without a terminal)" },
  },
  examples: ["tracker keys delete 0b9f2c1e-… --yes"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  await confirmDeletion(deps, opts.yes, `API key ${opts.id}`);
  await deps.tracker.apiKeys.delete(opts.id, deps.call);
  if (opts.json) return printJson(deps, { deleted: true, id: opts.id });
  say(deps, `Deleted key ${opts.id}`);
}
