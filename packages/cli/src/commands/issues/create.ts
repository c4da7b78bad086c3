import type { BodyOf, Schemas } from "@tracker/sdk";
import { parsePriority } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, splitList, UsageError } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  name: "issues create",
  summary: "Create an issue",
  description: "Prints the new issue's identifier. Unknown labels are created on the fly.",
  args: [],
  options: {
    team: { type: "string", short: "t", value: "KEY", description: "Team key or id, e.g. ENG (required)" },
    title: { type: "string", value: "TEXT", description: "Title (required)" },
    description: { type: "string", short: "d", value: "TEXT", description: "Description, in Markdown" },
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
      description: 'Workflow state name, e.g. "Todo" (default: the team\'s backlog)',
    },
    project: { type: "string", short: "p", value: "NAME", description: "Project name or id" },
  },
  examples: [
    'tracker issues create --team ENG --title "Login fails on Safari" --priority high --assignee me',
    'tracker issues create -t ENG --title "Flaky test" -l bug,ci',
  ],
});

export function parsePriorityFlag(value: string | undefined): Schemas["Priority"] | undefined {
  if (value === undefined) return undefined;
  const priority = parsePriority(value);
  if (priority === undefined) {
    throw new UsageError(
      `invalid value "${value}" for --priority; expected urgent, high, medium, low, none or 0-4`,
    );
  }
  return priority;
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  if (!opts.team) throw new UsageError("--team is required");
  if (!opts.title) throw new UsageError("--title is required");
  const body: BodyOf<"createIssue"> = { team: opts.team, title: opts.title };
  if (opts.description !== undefined) body.description = opts.description;
  const priority = parsePriorityFlag(opts.priority);
  if (priority !== undefined) body.priority = priority;
  if (opts.assignee) body.assignee = opts.assignee;
  const labels = splitList(opts.label);
  if (labels) body.labels = labels;
  if (opts.state) body.state = opts.state;
  if (opts.project) body.project = opts.project;

  const issue = await deps.tracker.issues.create(body);
  if (opts.json) return printJson(deps, issue);
  if (deps.isTTY) say(deps, `Created ${issue.identifier} in ${issue.team.name} [${issue.state.name}]`);
  deps.stdout.write(`${issue.identifier}\n`);
}
