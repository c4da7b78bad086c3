import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Stop following an issue, also one you created or are assigned to (mentions still reach you)",
  args: ["id"],
  options: {},
  examples: ["tracker issues unsubscribe ENG-123"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const subscribed = await deps.tracker.issues.subscribe(opts.id, false, deps.call);
  if (opts.json) return printJson(deps, { identifier: opts.id.toUpperCase(), subscribed });
  say(deps, `Unsubscribed from ${opts.id.toUpperCase()}`);
}
