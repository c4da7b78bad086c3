import { type Deps, defineCommand, type Opts } from "../../command.js";
import { confirmDeletion } from "../../input.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Delete a team with its issues, cycles and documents (admins)",
  description:
    "Its projects are kept without the team, or deleted with --delete-projects when they belong to it alone.",
  args: ["team"],
  options: {
    deleteProjects: {
      type: "boolean",
      description: "Also delete the projects that belong to this team alone",
    },
    yes: { type: "boolean", short: "y", description: "Delete without asking (required without a terminal)" },
  },
  examples: ["tracker teams delete OLD --yes"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const key = opts.team.toUpperCase();
  await confirmDeletion(deps, opts.yes, `team ${key} and every issue in it`);
  const result = await deps.tracker.teams.delete(
    opts.team,
    opts.deleteProjects ? { deleteProjects: true } : {},
    deps.call,
  );
  if (opts.json) return printJson(deps, result);
  say(
    deps,
    `Deleted team ${key}` +
      (result.deletedProjects ? `, and ${result.deletedProjects} of its projects` : "") +
      (result.detachedProjects ? `; ${result.detachedProjects} projects kept without a team` : ""),
  );
}
