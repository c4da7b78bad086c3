import type { QueryOf, Schemas } from "@tracker/sdk";
import { ISSUE_SORTS, ISSUE_SPECIAL_FILTERS, STATE_TYPES } from "@tracker/sdk";
import { CommandError, type Deps, defineCommand, type Opts, splitList, UsageError } from "../../command.js";
import { printList, say } from "../../output.js";
import { collectPages, parseLimit } from "../../paging.js";
import { issueColumns } from "./columns.js";

export const spec = defineCommand({
  summary: "List issues, with the same filters as the app's views",
  description:
    "Every filter is ANDed with every other. Without --state or --state-type, finished issues are listed too;\n" +
    "use --state-type backlog,unstarted,started for open work. --view runs one of your saved views; flags\n" +
    "given with it replace the view's value of that filter.",
  args: [],
  options: {
    team: {
      type: "string",
      short: "t",
      value: "KEY",
      description: "Team key or id, e.g. ENG",
      complete: "teams",
    },
    state: {
      type: "string",
      short: "s",
      value: "NAME",
      description: 'Workflow state name, e.g. "In Progress" (needs --team)',
    },
    stateType: {
      type: "string",
      value: "TYPES",
      description: "Comma-separated state types",
      choices: STATE_TYPES,
      list: true,
    },
    assignee: { type: "string", short: "a", value: "USER", description: "Assignee email, id, or `me`" },
    project: { type: "string", short: "p", value: "NAME", description: "Project name or id" },
    cycle: { type: "string", value: "N", description: "Cycle number, or `current` (needs --team)" },
    label: {
      type: "string",
      short: "l",
      multiple: true,
      value: "NAME",
      description: "Label name; repeat or comma-separate, all must match",
    },
    search: {
      type: "string",
      short: "q",
      value: "TEXT",
      description: "Full-text search over title and description",
    },
    special: {
      type: "string",
      value: "FILTERS",
      description: "Comma-separated computed filters",
      choices: ISSUE_SPECIAL_FILTERS,
      list: true,
    },
    sort: {
      type: "string",
      value: "KEY",
      description: "Sort key; prefix - to reverse (default -updated)",
      choices: ISSUE_SORTS,
    },
    createdAfter: {
      type: "string",
      value: "DATE",
      description: "Created at or after a date or ISO date-time",
    },
    createdBefore: { type: "string", value: "DATE", description: "Created before a date or ISO date-time" },
    updatedAfter: {
      type: "string",
      value: "DATE",
      description: "Updated at or after a date or ISO date-time",
    },
    completedAfter: {
      type: "string",
      value: "DATE",
      description: "Completed or canceled at or after a date or ISO date-time",
    },
    completedBefore: {
      type: "string",
      value: "DATE",
      description: "Completed or canceled before a date or ISO date-time",
    },
    view: { type: "string", value: "NAME", description: "Run a saved view's filters (name or id)" },
    limit: {
      type: "string",
      short: "L",
      value: "N",
      description: 'Most issues to list (default 50), or "all"',
    },
    all: { type: "boolean", description: "List every matching issue (same as --limit all)" },
  },
  examples: [
    "tracker issues list --team ENG --state-type started",
    "tracker issues list --assignee me --special overdue,blocked",
    'tracker issues list --view "My overdue"',
    "tracker issues list --team ENG --completed-after 2026-11-01 --completed-before 2026-12-01",
    "tracker issues list -q 'login bug' --json identifier,title,state",
    "tracker issues list --limit all --jq '.[] | select(.priority == 1) | .identifier'",
  ],
});

type IssueQuery = QueryOf<"listIssues">;

// The keys a saved view of kind `issues` may hold, per the contract's `createView`.
const VIEW_FILTER_KEYS = [
  "team",
  "state",
  "stateType",
  "assignee",
  "project",
  "cycle",
  "label",
  "q",
  "special",
  "createdAfter",
  "createdBefore",
  "updatedAfter",
  "completedAfter",
  "completedBefore",
];

/** A saved view's filters as a query: its `filters`, its team and its sort. */
export async function viewQuery(deps: Deps, ref: string): Promise<IssueQuery> {
  const views = await deps.tracker.views.list(deps.call);
  const view =
    views.find((v) => v.id === ref) ?? views.find((v) => v.name.toLowerCase() === ref.toLowerCase());
  if (!view) {
    const names = views.filter((v) => v.kind === "issues").map((v) => `  ${v.name}`);
    throw new CommandError(
      `no saved view "${ref}"${names.length ? `; your issue views:\n${names.join("\n")}` : "; you have no saved issue views"}`,
    );
  }
  if (view.kind !== "issues")
    throw new CommandError(`"${view.name}" is a view of ${view.kind}, not of issues`);
  const query: Record<string, unknown> = {};
  for (const key of VIEW_FILTER_KEYS) if (view.filters[key] !== undefined) query[key] = view.filters[key];
  if (view.team && query.team === undefined) query.team = view.team;
  if (view.sort) query.sort = view.sort;
  return query as IssueQuery;
}

/** Turns flags into the SDK's query (values the contract does not allow were refused while parsing). */
export function toQuery(opts: Opts<typeof spec>): IssueQuery {
  const query: IssueQuery = {};
  if (opts.team) query.team = opts.team;
  if (opts.state) query.state = opts.state;
  const stateTypes = splitList(opts.stateType);
  if (stateTypes) query.stateType = stateTypes as IssueQuery["stateType"];
  if (opts.assignee) query.assignee = opts.assignee;
  if (opts.project) query.project = opts.project;
  if (opts.cycle) {
    if (opts.cycle === "current") query.cycle = "current";
    else if (/^[1-9]\d*$/.test(opts.cycle)) query.cycle = Number(opts.cycle);
    else
      throw new UsageError(`invalid value "${opts.cycle}" for --cycle; expected a cycle number or "current"`);
  }
  const labels = splitList(opts.label);
  if (labels) query.label = labels;
  if (opts.search) query.q = opts.search;
  const special = splitList(opts.special);
  if (special) query.special = special as IssueQuery["special"];
  if (opts.sort) query.sort = opts.sort as IssueQuery["sort"];
  // Dates are checked by the server, whose 400 names the field.
  if (opts.createdAfter) query.createdAfter = opts.createdAfter;
  if (opts.createdBefore) query.createdBefore = opts.createdBefore;
  if (opts.updatedAfter) query.updatedAfter = opts.updatedAfter;
  if (opts.completedAfter) query.completedAfter = opts.completedAfter;
  if (opts.completedBefore) query.completedBefore = opts.completedBefore;
  return query;
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const flags = toQuery(opts);
  const limit = parseLimit(opts.limit, opts.all);
  const query = opts.view ? { ...(await viewQuery(deps, opts.view)), ...flags } : flags;
  const { items, more } = await collectPages<Schemas["Issue"]>(
    deps,
    limit,
    (page) => deps.tracker.issues.list({ ...query, ...page }, deps.call),
    "issues",
  );
  await printList(deps, opts, items, issueColumns, "No issues match.");
  if (deps.isTTY && !opts.json && more)
    say(deps, `Showing ${items.length} issues; there are more (use --limit N or --limit all).`);
}
