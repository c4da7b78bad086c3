import { type Deps, defineCommand, type Opts, required } from "../../command.js";
import { textFrom } from "../../input.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Comment on an issue",
  description: "Prints the new comment's id. On a terminal a missing --body is asked for.",
  args: ["issue"],
  options: {
    body: { type: "string", short: "b", value: "TEXT", description: "The comment, in Markdown (required)" },
    bodyFile: {
      type: "string",
      short: "F",
      value: "FILE",
      description: "Read the comment from a file (- for standard input)",
    },
    editor: {
      type: "boolean",
      short: "e",
      description: "Write the comment in $EDITOR (VISUAL, EDITOR, else vi)",
    },
  },
  examples: [
    'tracker issues comment ENG-123 --body "Fixed in #42"',
    "make test 2>&1 | tail -20 | tracker comments add ENG-123 -F -",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const text = await textFrom(
    deps,
    { flag: "body", value: opts.body },
    { flag: "body-file", value: opts.bodyFile },
    { value: opts.editor, what: "the comment" },
  );
  const body = await required(deps, "body", text?.trim() ? text : undefined, () =>
    deps.prompt.input("Comment"),
  );
  const comment = await deps.tracker.comments.create(opts.issue, { body }, deps.call);
  if (opts.json) return printJson(deps, comment);
  if (deps.isTTY) say(deps, `Commented on ${opts.issue.toUpperCase()}`);
  deps.stdout.write(`${comment.id}\n`);
}
