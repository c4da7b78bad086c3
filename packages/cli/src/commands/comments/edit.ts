import { type Deps, defineCommand, type Opts, required } from "../../command.js";
import { textFrom } from "../../input.js";
import { printJson, say } from "../../output.js";
import { findComment } from "./resolve.js";

export const spec = defineCommand({
  summary: "Edit one of your comments",
  description:
    "The comment is its id (or the first 8 characters 'comments list' shows), or `last` for your latest.",
  args: ["issue", "comment"],
  options: {
    body: { type: "string", short: "b", value: "TEXT", description: "The new text, in Markdown" },
    bodyFile: {
      type: "string",
      short: "F",
      value: "FILE",
      description: "Read the new text from a file (- for standard input)",
    },
    editor: {
      type: "boolean",
      short: "e",
      description: "Write the comment in $EDITOR (VISUAL, EDITOR, else vi)",
    },
  },
  examples: ['tracker comments edit ENG-123 last --body "Fixed in #43"'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const comment = await findComment(deps, opts.issue, opts.comment);
  const text = await textFrom(
    deps,
    { flag: "body", value: opts.body },
    { flag: "body-file", value: opts.bodyFile },
    { value: opts.editor, what: "the comment", initial: comment.body },
  );
  const body = await required(deps, "body", text?.trim() ? text : undefined, () =>
    deps.prompt.input("Comment", { default: comment.body }),
  );
  const updated = await deps.tracker.comments.update(opts.issue, comment.id, { body }, deps.call);
  if (opts.json) return printJson(deps, updated);
  if (deps.isTTY) say(deps, `Edited your comment on ${opts.issue.toUpperCase()}`);
  deps.stdout.write(`${updated.id}\n`);
}
