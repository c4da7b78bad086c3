import type { BodyOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, splitList, UsageError } from "../../command.js";
import { textFrom } from "../../input.js";
import { printJson, say } from "../../output.js";
import { documentId } from "./find.js";

export const spec = defineCommand({
  summary: "Change a document: title, team, content or linked issues",
  description: "--issue replaces the linked issues; `--issue none` unlinks them all.",
  args: ["document"],
  options: {
    title: { type: "string", value: "TEXT", description: "New title" },
    team: { type: "string", short: "t", value: "KEY", description: "Move to this team", complete: "teams" },
    content: { type: "string", short: "c", value: "TEXT", description: "New content, in Markdown" },
    contentFile: {
      type: "string",
      short: "F",
      value: "FILE",
      description: "Read the new content from a file (- for standard input)",
    },
    editor: {
      type: "boolean",
      short: "e",
      description: "Write the content in $EDITOR (VISUAL, EDITOR, else vi)",
    },
    issue: {
      type: "string",
      short: "i",
      multiple: true,
      value: "ID",
      description: "Replace the linked issues; repeat or comma-separate",
    },
  },
  examples: [
    'tracker docs edit "Deploy runbook" --content-file runbook.md',
    "cat notes.md | tracker docs edit 3f2a… -F -",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const body: BodyOf<"updateDocument"> = {};
  if (opts.title) body.title = opts.title;
  if (opts.team) body.team = opts.team;
  const id = await documentId(deps, opts.document);
  const content = await textFrom(
    deps,
    { flag: "content", value: opts.content },
    { flag: "content-file", value: opts.contentFile },
    {
      value: opts.editor,
      what: "the content",
      initial: opts.editor ? ((await deps.tracker.documents.get(id, deps.call)).content ?? "") : "",
    },
  );
  if (content !== undefined) body.content = content;
  const issues = splitList(opts.issue);
  if (issues) body.issues = issues.length === 1 && issues[0] === "none" ? [] : issues;
  if (Object.keys(body).length === 0)
    throw new UsageError("nothing to change; pass --title, --team, --content, --content-file or --issue");
  const doc = await deps.tracker.documents.update(id, body, deps.call);
  if (opts.json) return printJson(deps, doc);
  if (deps.isTTY) say(deps, `Updated document "${doc.title}"`);
  deps.stdout.write(`${doc.id}\n`);
}
