import { type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  name: "issues comment",
  summary: "Comment on an issue",
  args: ["id"],
  options: {
    body: { type: "string", short: "b", value: "TEXT", description: "The comment, in Markdown (required)" },
  },
  examples: ['tracker issues comment ENG-123 --body "Fixed in #42"'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  if (!opts.body?.trim()) throw new UsageError("--body is required");
  const comment = await deps.tracker.comments.create(opts.id, { body: opts.body });
  if (opts.json) return printJson(deps, comment);
  if (deps.isTTY) say(deps, `Commented on ${opts.id.toUpperCase()}`);
  deps.stdout.write(`${comment.id}\n`);
}
