import type { BodyOf, Schemas } from "@tracker/sdk";
import {
  CommandError,
  type Deps,
  dateFlag,
  defineCommand,
  type Opts,
  splitList,
  UsageError,
} from "../../command.js";
import { textFrom } from "../../input.js";
import { printJson, progress, say } from "../../output.js";
import { parseCycle, parseEstimate, parsePriorityFlag } from "../../priority.js";
import { issueTeamStates } from "../../resolve.js";

export const spec = defineCommand({
  summary: "Change one or more issues: state, assignee, priority, labels and more",
  description:
    "Applies the same change to every issue named, one after another; each that fails is reported and the\n" +
    "rest still change (exit 1 if any failed). `none` clears --assignee, --project, --cycle, --estimate,\n" +
    "--due and --parent. On a terminal, with no change given, it asks for the new state.",
  args: ["ids..."],
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
    descriptionFile: {
      type: "string",
      short: "F",
      value: "FILE",
      description: "Read the new description from a file (- for standard input)",
    },
    editor: {
      type: "boolean",
      short: "e",
      description: "Write the description in $EDITOR (VISUAL, EDITOR, else vi)",
    },
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
    project: { type: "string", short: "p", value: "NAME", description: "Project name or id; `none` clears" },
    cycle: { type: "string", value: "N", description: "Cycle number or `current`; `none` clears" },
    estimate: { type: "string", value: "N", description: "Estimate points; `none` clears" },
    due: { type: "string", value: "DATE", description: "Due date YYYY-MM-DD; `none` clears" },
    parent: { type: "string", value: "ID", description: "Parent issue; `none` clears" },
  },
  examples: [
    'tracker issues edit ENG-123 --state "In Progress" --assignee me',
    "tracker issues edit ENG-1 ENG-2 ENG-3 --add-label bug --remove-label triage",
    "tracker issues list --special stale --jq '.[].identifier' | xargs tracker issues edit --priority low",
  ],
});

type IssueUpdate = BodyOf<"updateIssue">;

async function changes(opts: Opts<typeof spec>, deps: Deps): Promise<IssueUpdate> {
  const body: IssueUpdate = {};
  const clear = <T>(value: string | undefined, map: (v: string) => T): T | null | undefined =>
    value === undefined ? undefined : value === "none" ? null : map(value);
  if (opts.state) body.state = opts.state;
  const assignee = clear(opts.assignee, (v) => v);
  if (assignee !== undefined) body.assignee = assignee;
  const priority = parsePriorityFlag(opts.priority);
  if (priority !== undefined) body.priority = priority;
  if (opts.title !== undefined) body.title = opts.title;
  const description = await textFrom(
    deps,
    { flag: "description", value: opts.description },
    { flag: "description-file", value: opts.descriptionFile },
    {
      value: opts.editor,
      what: "the description",
      // The first issue's description, to change rather than retype.
      initial: opts.editor
        ? ((await deps.tracker.issues.get(opts.ids[0]!, deps.call)).description ?? "")
        : "",
    },
  );
  if (description !== undefined) body.description = description;
  const add = splitList(opts.addLabel);
  if (add) body.addLabels = add;
  const remove = splitList(opts.removeLabel);
  if (remove) body.removeLabels = remove;
  const project = clear(opts.project, (v) => v);
  if (project !== undefined) body.project = project;
  const cycle = parseCycle(opts.cycle);
  if (cycle !== undefined) body.cycle = cycle;
  const estimate = parseEstimate(opts.estimate);
  if (estimate !== undefined) body.estimate = estimate;
  const due = clear(opts.due, (v) => dateFlag("due", v));
  if (due !== undefined) body.dueDate = due;
  const parent = clear(opts.parent, (v) => v);
  if (parent !== undefined) body.parent = parent;
  return body;
}

/**
 * Sends one change to each issue in turn, printing each identifier as it changes; failures are reported
 * and counted, the rest go on. Shared by edit, close, reopen and move-like bulk commands.
 */
export async function eachIssue(
  deps: Deps,
  opts: { json?: boolean },
  ids: string[],
  verb: string,
  apply: (id: string) => Promise<Schemas["Issue"]>,
): Promise<void> {
  const done: Schemas["Issue"][] = [];
  const failed: string[] = [];
  const bar = progress(deps);
  for (const [i, id] of ids.entries()) {
    if (ids.length > 1) bar.update(`${verb} ${i + 1}/${ids.length}: ${id}…`);
    try {
      const issue = await apply(id);
      done.push(issue);
      bar.done();
      if (!opts.json) {
        if (deps.isTTY) say(deps, `${verb} ${issue.identifier} [${issue.state.name}]`);
        deps.stdout.write(`${issue.identifier}\n`);
      }
    } catch (err) {
      bar.done();
      if (ids.length === 1 || deps.call.signal?.aborted) throw err;
      const e = err as { code?: string; detail?: string; message: string };
      failed.push(id);
      say(deps, `${id}: ${e.code ? `${e.code}: ${e.detail || e.message}` : e.message}`);
    }
  }
  if (opts.json) await printJson(deps, ids.length === 1 ? done[0] : done);
  if (failed.length) {
    throw new CommandError(`${failed.length} of ${ids.length} issues were not changed: ${failed.join(", ")}`);
  }
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const body = await changes(opts, deps);
  if (Object.keys(body).length === 0) {
    if (!deps.canPrompt || opts.ids.length !== 1) {
      throw new UsageError(
        "nothing to change; pass at least one of --state, --assignee, --priority, --title, --description, " +
          "--add-label, --remove-label, --project, --cycle, --estimate, --due, --parent",
      );
    }
    const { states } = await issueTeamStates(deps, opts.ids[0]!);
    body.state = await deps.prompt.select(
      "New state",
      states.map((s) => ({ name: `${s.name} (${s.type})`, value: s.name })),
    );
  }
  await eachIssue(deps, opts, opts.ids, "Updated", (id) => deps.tracker.issues.update(id, body, deps.call));
}
