import { type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Move an initiative, its projects and their issues to another workspace",
  description:
    "The original stays behind, canceled, so links to it keep working. Admin of both workspaces only.",
  args: ["initiative"],
  options: {
    toWorkspace: { type: "string", value: "WS", description: "Target workspace slug, name or id (required)" },
    team: {
      type: "string",
      short: "t",
      value: "KEY",
      description: "Team of the target workspace for the issues (required)",
    },
  },
  examples: ['tracker initiatives move "Q3 growth" --to-workspace acme-labs --team LAB'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  if (!opts.toWorkspace) throw new UsageError("--to-workspace is required");
  if (!opts.team) throw new UsageError("--team is required");
  const moved = await deps.tracker.initiatives.move(
    opts.initiative,
    { workspace: opts.toWorkspace, team: opts.team },
    deps.call,
  );
  if (opts.json) return printJson(deps, moved);
  // `moved` is free-form in the contract; the reference server counts projects and issues.
  const report = moved as { projects?: number; issues?: number };
  say(
    deps,
    `Moved ${opts.initiative} to ${opts.toWorkspace}: ${report.projects ?? 0} projects, ${report.issues ?? 0} issues`,
  );
}
