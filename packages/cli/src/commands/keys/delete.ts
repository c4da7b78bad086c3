import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  name: "keys delete",
  summary: "Revoke one of your API keys",
  description: "The key stops working at once. Find ids with 'tracker keys list'.",
  args: ["id"],
  options: {},
  examples: ["tracker keys delete 0b9f2c1e-…"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  await deps.tracker.apiKeys.delete(opts.id);
  if (opts.json) return printJson(deps, { ok: true });
  say(deps, `Deleted key ${opts.id}`);
}
