import { type Deps, defineCommand, type Opts } from "../../command.js";
import { confirmDeletion } from "../../input.js";
import { printJson, say } from "../../output.js";
import { findComment } from "./resolve.js";

export const spec = defineCommand({
  summary: "Delete a comment",
  args: ["issue", "comment"],
  options: {
    yes: { type: "boolean", short: "y", description: "Delete without asking (required without a terminal)" },
  },
  examples: ["tracker comments delete ENG-123 last --yes"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const comment = await findComment(deps, opts.issue, opts.comment);
  await confirmDeletion(
    deps,
    opts.yes,
    `the comment by ${comment.author.name} on ${opts.issue.toUpperCase()}`,
  );
  await deps.tracker.comments.delete(opts.issue, comment.id, deps.call);
  if (opts.json) return printJson(deps, { deleted: true, id: comment.id });
  say(deps, `Deleted comment ${comment.id}`);
}
