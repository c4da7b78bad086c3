import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Restore an archived issue to lists and progress",
  args: ["id"],
  options: {},
  examples: ["tracker issues unarchive ENG-123"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const issue = await deps.tracker.issues.unarchive(opts.id, deps.call);
  if (opts.json) return printJson(deps, issue);
  say(deps, `Restored ${issue.identifier}`);
}
