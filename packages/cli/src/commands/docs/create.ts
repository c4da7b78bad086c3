import type { BodyOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, required, splitList } from "../../command.js";
import { textFrom } from "../../input.js";
import { printJson, say } from "../../output.js";
import { pickTeam } from "../../resolve.js";

export const spec = defineCommand({
  summary: "Create a document, its content inline, from a file or from standard input",
  args: [],
  options: {
    team: { type: "string", short: "t", value: "KEY", description: "Team key (required)", complete: "teams" },
    title: { type: "string", value: "TEXT", description: "Title (required)" },
    content: { type: "string", short: "c", value: "TEXT", description: "Content, in Markdown" },
    contentFile: {
      type: "string",
      short: "F",
      value: "FILE",
      description: "Read the content from a file (- for standard input)",
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
      description: "Link an issue; repeat or comma-separate",
    },
  },
  examples: [
    'tracker docs create --team ENG --title "Deploy runbook" --content-file runbook.md --issue ENG-12',
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const team = await required(deps, "team", opts.team, () => pickTeam(deps));
  const title = await required(deps, "title", opts.title, () => deps.prompt.input("Title"));
  const body: BodyOf<"createDocument"> = { team, title };
  const content = await textFrom(
    deps,
    { flag: "content", value: opts.content },
    { flag: "content-file", value: opts.contentFile },
    { value: opts.editor, what: "the content" },
  );
  if (content !== undefined) body.content = content;
  const issues = splitList(opts.issue);
  if (issues) body.issues = issues;
  const doc = await deps.tracker.documents.create(body, deps.call);
  if (opts.json) return printJson(deps, doc);
  if (deps.isTTY) say(deps, `Created document "${doc.title}" in ${doc.team.key}`);
  deps.stdout.write(`${doc.id}\n`);
}
