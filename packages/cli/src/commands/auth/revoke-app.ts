import { type Deps, defineCommand, type Opts } from "../../command.js";
import { confirmDeletion } from "../../input.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Revoke an app you authorised",
  description:
    "Its tokens stop working at once; it must ask for consent again. Find ids with 'tracker auth apps'.",
  args: ["id"],
  options: {
    yes: { type: "boolean", short: "y", description: "Revoke without asking (required without a terminal)" },
  },
  examples: ["tracker auth revoke-app 0b9f2c1e-… --yes"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  await confirmDeletion(deps, opts.yes, `the app's access (grant ${opts.id})`);
  await deps.tracker.account.revokeApp(opts.id, deps.call);
  if (opts.json) return printJson(deps, { revoked: true, id: opts.id });
  say(deps, `Revoked app ${opts.id}`);
}
