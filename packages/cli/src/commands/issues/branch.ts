import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson } from "../../output.js";

export const spec = defineCommand({
  summary: "Print an issue's git branch name",
  description:
    "The lowercase identifier and a slug of the title (eng-123-fix-login-crash). Pull requests from a\nbranch so named move the issue by its team's workflow rules.",
  args: ["id"],
  options: {},
  examples: ["tracker issues branch ENG-123", 'git switch -c "$(tracker issues branch ENG-123)"'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const issue = await deps.tracker.issues.get(opts.id, deps.call);
  if (opts.json) return printJson(deps, { identifier: issue.identifier, branchName: issue.branchName });
  deps.stdout.write(`${issue.branchName}\n`);
}
