import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Archive an issue: hidden from lists, kept with its history; `issues unarchive` restores it",
  args: ["id"],
  options: {},
  examples: ["tracker issues archive ENG-123", "tracker issues list --archived"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const issue = await deps.tracker.issues.archive(opts.id, deps.call);
  if (opts.json) return printJson(deps, issue);
  say(deps, `Archived ${issue.identifier}; restore it with: tracker issues unarchive ${issue.identifier}`);
}
