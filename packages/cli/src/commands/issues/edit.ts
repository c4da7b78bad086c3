import type { BodyOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, splitList, UsageError } from "../../command.js";
import { printJson, say } from "../../output.js";
import { parsePriorityFlag } from "./create.js";

export const spec = defineCommand({
  name: "issues edit",
  summary: "Change an issue's state, assignee, priority, title or labels",
  args: ["id"],
  options: {
    state: {
      type: "string",
      short: "s",
      value: "NAME",
      description: 'Workflow state name, e.g. "In Progress"',
    },
    assignee: {
      type: "string",
      short: "a",
      value: "USER",
      description: "Assignee email, id, or `me`; `none` unassigns",
    },
    priority: {
      type: "string",
      value: "P",
      description: "urgent, high, medium, low or none (or 1-4, 0 for none)",
    },
    title: { type: "string", value: "TEXT", description: "New title" },
    description: { type: "string", short: "d", value: "TEXT", description: "New description, in Markdown" },
    addLabel: {
      type: "string",
      multiple: true,
      value: "NAME",
      description: "Label to add; repeat or comma-separate",
    },
    removeLabel: {
      type: "string",
      multiple: true,
      value: "NAME",
      description: "Label to remove; repeat or comma-separate",
    },
  },
  examples: [
    'tracker issues edit ENG-123 --state "In Progress" --assignee me',
    "tracker issues edit ENG-123 --add-label bug --remove-label triage",
    "tracker issues edit ENG-123 --assignee none",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const body: BodyOf<"updateIssue"> = {};
  if (opts.state) body.state = opts.state;
  if (opts.assignee !== undefined) body.assignee = opts.assignee === "none" ? null : opts.assignee;
  const priority = parsePriorityFlag(opts.priority);
  if (priority !== undefined) body.priority = priority;
  if (opts.title !== undefined) body.title = opts.title;
  if (opts.description !== undefined) body.description = opts.description;
  const add = splitList(opts.addLabel);
  if (add) body.addLabels = add;
  const remove = splitList(opts.removeLabel);
  if (remove) body.removeLabels = remove;
  if (Object.keys(body).length === 0) {
    throw new UsageError(
      "nothing to change; pass at least one of --state, --assignee, --priority, --title, --add-label, --remove-label",
    );
  }

  const issue = await deps.tracker.issues.update(opts.id, body);
  if (opts.json) return printJson(deps, issue);
  if (deps.isTTY) say(deps, `Updated ${issue.identifier} [${issue.state.name}]`);
  deps.stdout.write(`${issue.identifier}\n`);
}
