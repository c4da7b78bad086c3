import { type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Delegate an issue to an agent, beside its assignee",
  description:
    "The agent (`tracker agents list`) gets a session on the issue and is told at once; follow it with " +
    "`tracker agents sessions --issue ID`. --clear takes the delegation back.",
  args: ["id"],
  options: {
    to: { type: "string", value: "AGENT", description: "The agent's name or id" },
    clear: { type: "boolean", description: "Delegate to no agent" },
  },
  examples: ["tracker issues delegate ENG-1 --to triage-bot", "tracker issues delegate ENG-1 --clear"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  if ((opts.to === undefined) === !opts.clear) throw new UsageError("give --to AGENT or --clear");
  const issue = await deps.tracker.issues.delegate(opts.id, opts.clear ? null : opts.to!, deps.call);
  if (opts.json) return printJson(deps, issue);
  say(
    deps,
    issue.delegate
      ? `Delegated ${issue.identifier} to ${issue.delegate.name}`
      : `${issue.identifier} is delegated to no agent`,
  );
}
