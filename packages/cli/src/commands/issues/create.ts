import type { BodyOf } from "@tracker/sdk";
import { type Deps, dateFlag, defineCommand, type Opts, required, splitList } from "../../command.js";
import { textFrom } from "../../input.js";
import { printJson, say } from "../../output.js";
import { parseCycle, parseEstimate, parsePriorityFlag } from "../../priority.js";
import { pickTeam } from "../../resolve.js";

export const spec = defineCommand({
  summary: "Create an issue",
  description:
    "Prints the new issue's identifier. Unknown labels are created on the fly. On a terminal a missing\n" +
    "--team is picked from your teams and a missing --title asked for.",
  args: [],
  options: {
    team: {
      type: "string",
      short: "t",
      value: "KEY",
      description: "Team key or id, e.g. ENG (required)",
      complete: "teams",
    },
    title: { type: "string", value: "TEXT", description: "Title (required)" },
    description: { type: "string", short: "d", value: "TEXT", description: "Description, in Markdown" },
    descriptionFile: {
      type: "string",
      short: "F",
      value: "FILE",
      description: "Read the description from a file (- for standard input)",
    },
    editor: {
      type: "boolean",
      short: "e",
      description: "Write the description in $EDITOR (VISUAL, EDITOR, else vi)",
    },
    priority: {
      type: "string",
      value: "P",
      description: "urgent, high, medium, low or none (or 1-4, 0 for none)",
    },
    assignee: { type: "string", short: "a", value: "USER", description: "Assignee email, id, or `me`" },
    label: {
      type: "string",
      short: "l",
      multiple: true,
      value: "NAME",
      description: "Label name; repeat or comma-separate",
    },
    state: {
      type: "string",
      short: "s",
      value: "NAME",
      description: 'Workflow state, e.g. "Todo" (default: the team\'s backlog)',
    },
    project: { type: "string", short: "p", value: "NAME", description: "Project name or id" },
    cycle: { type: "string", value: "N", description: "Cycle number or `current`" },
    estimate: { type: "string", value: "N", description: "Estimate points" },
    due: { type: "string", value: "DATE", description: "Due date, YYYY-MM-DD" },
    parent: { type: "string", value: "ID", description: "Parent issue, making this a sub-issue" },
  },
  examples: [
    'tracker issues create --team ENG --title "Login fails on Safari" --priority high --assignee me',
    'tracker issues create -t ENG --title "Flaky test" -l bug,ci',
    'git log -1 --format=%B | tracker issues create -t ENG --title "Follow up" --description-file -',
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const team = await required(deps, "team", opts.team, () => pickTeam(deps));
  const title = await required(deps, "title", opts.title, () => deps.prompt.input("Title"));
  const body: BodyOf<"createIssue"> = { team, title };
  const description = await textFrom(
    deps,
    { flag: "description", value: opts.description },
    { flag: "description-file", value: opts.descriptionFile },
    { value: opts.editor, what: "the description" },
  );
  if (description !== undefined) body.description = description;
  const priority = parsePriorityFlag(opts.priority);
  if (priority !== undefined) body.priority = priority;
  if (opts.assignee) body.assignee = opts.assignee;
  const labels = splitList(opts.label);
  if (labels) body.labels = labels;
  if (opts.state) body.state = opts.state;
  if (opts.project) body.project = opts.project;
  const cycle = parseCycle(opts.cycle);
  if (cycle !== undefined) body.cycle = cycle;
  const estimate = parseEstimate(opts.estimate);
  if (estimate !== undefined) body.estimate = estimate;
  if (opts.due) body.dueDate = dateFlag("due", opts.due);
  if (opts.parent) body.parent = opts.parent;

  const issue = await deps.tracker.issues.create(body, deps.call);
  if (opts.json) return printJson(deps, issue);
  if (deps.isTTY) say(deps, `Created ${issue.identifier} in ${issue.team.name} [${issue.state.name}]`);
  deps.stdout.write(`${issue.identifier}\n`);
}
