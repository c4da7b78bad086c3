import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Follow an issue: its changes reach your inbox (`tracker inbox`)",
  args: ["id"],
  options: {},
  examples: ["tracker issues subscribe ENG-123"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const subscribed = await deps.tracker.issues.subscribe(opts.id, true, deps.call);
  if (opts.json) return printJson(deps, { identifier: opts.id.toUpperCase(), subscribed });
  say(deps, `Subscribed to ${opts.id.toUpperCase()}`);
}
