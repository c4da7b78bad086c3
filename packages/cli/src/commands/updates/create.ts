import { type Deps, defineCommand, type Opts, required, splitList } from "../../command.js";
import { textFrom } from "../../input.js";
import { printJson, say } from "../../output.js";
import { SUBJECT_OPTIONS, subject } from "./subject.js";

export const spec = defineCommand({
  summary: "Post a status update on a team, project or initiative",
  description: "Its health is computed by the server when it is posted.",
  args: [],
  options: {
    ...SUBJECT_OPTIONS,
    title: { type: "string", value: "TEXT", description: "Title (required)" },
    body: { type: "string", short: "b", value: "TEXT", description: "The update, in Markdown (required)" },
    bodyFile: {
      type: "string",
      short: "F",
      value: "FILE",
      description: "Read the update from a file (- for standard input)",
    },
    issue: {
      type: "string",
      multiple: true,
      value: "ID",
      description: "Cite an issue; repeat or comma-separate",
    },
  },
  examples: ['tracker updates create --project Launch --title "Week 3" --body "Beta is out."'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const about = subject(opts);
  const title = await required(deps, "title", opts.title, () => deps.prompt.input("Title"));
  const text = await textFrom(
    deps,
    { flag: "body", value: opts.body },
    { flag: "body-file", value: opts.bodyFile },
  );
  const content = await required(deps, "body", text?.trim() ? text : undefined, () =>
    deps.prompt.input("Update"),
  );
  const issues = splitList(opts.issue);
  const update = await deps.tracker.updates.create(
    { ...about, title, content, ...(issues ? { issues } : {}) },
    deps.call,
  );
  if (opts.json) return printJson(deps, update);
  if (deps.isTTY) say(deps, `Posted "${update.title}" (${update.health.replace("_", " ")})`);
  deps.stdout.write(`${update.id}\n`);
}
