import type { Schemas } from "@tracker/sdk";
import { ISSUE_SORTS, ISSUE_SPECIAL_FILTERS, STATE_TYPES } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, oneOf, splitList, UsageError } from "../../command.js";
import { printJson, printTable, say } from "../../output.js";
import { issueColumns } from "./columns.js";

export const spec = defineCommand({
  name: "issues list",
  summary: "List issues, with the same filters as the app's views",
  description:
    "Every filter is ANDed with every other. Without --state or --state-type, finished issues are listed too;\n" +
    "use --state-type backlog,unstarted,started for open work.",
  args: [],
  options: {
    team: { type: "string", short: "t", value: "KEY", description: "Team key or id, e.g. ENG" },
    state: {
      type: "string",
      short: "s",
      value: "NAME",
      description: 'Workflow state name, e.g. "In Progress" (needs --team)',
    },
    stateType: {
      type: "string",
      value: "TYPES",
      description: `Comma-separated state types: ${STATE_TYPES.join(", ")}`,
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
      description: `Comma-separated computed filters: ${ISSUE_SPECIAL_FILTERS.join(", ")}`,
    },
    sort: {
      type: "string",
      value: "KEY",
      description:
        "priority, due, created, updated, title, estimate, state or assignee; prefix - to reverse (default -updated)",
    },
    limit: { type: "string", short: "L", value: "N", description: "Most issues to list (default 50)" },
    all: { type: "boolean", description: "List every matching issue, following all pages" },
  },
  examples: [
    "tracker issues list --team ENG --state-type started",
    "tracker issues list --assignee me --special overdue,blocked",
    "tracker issues list -q 'login bug' --json",
    "tracker issues list --all | cut -f1",
  ],
});

type IssueQuery = NonNullable<Parameters<Deps["tracker"]["issues"]["list"]>[0]>;

const PAGE_MAX = 200;
const DEFAULT_LIMIT = 50;

/** Turns flags into the SDK's query, refusing values the contract does not allow. */
export function toQuery(opts: Opts<typeof spec>): IssueQuery {
  const query: IssueQuery = {};
  if (opts.team) query.team = opts.team;
  if (opts.state) query.state = opts.state;
  const stateTypes = splitList(opts.stateType);
  if (stateTypes) query.stateType = oneOf("state-type", stateTypes, STATE_TYPES);
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
  if (special) query.special = oneOf("special", special, ISSUE_SPECIAL_FILTERS);
  if (opts.sort) query.sort = oneOf("sort", [opts.sort], ISSUE_SORTS)[0];
  return query;
}

function parseLimit(limit: string | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (!/^[1-9]\d*$/.test(limit))
    throw new UsageError(`invalid value "${limit}" for --limit; expected a positive number`);
  return Number(limit);
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const query = toQuery(opts);
  const limit = opts.all ? Number.POSITIVE_INFINITY : parseLimit(opts.limit);
  const issues: Schemas["Issue"][] = [];
  let offset: number | null = 0;
  let more = false;
  // Page by hand rather than with `iterate`, so a --limit over 200 fetches exactly what it needs.
  while (offset !== null && issues.length < limit) {
    const page = await deps.tracker.issues.list({
      ...query,
      limit: Math.min(PAGE_MAX, limit - issues.length),
      ...(offset ? { offset } : {}),
    });
    issues.push(...page.items);
    offset = page.nextOffset;
    more = offset !== null;
  }

  if (opts.json) return printJson(deps, issues);
  if (deps.isTTY && issues.length === 0) return say(deps, "No issues match.");
  printTable(deps, issues, issueColumns);
  if (deps.isTTY && more)
    say(deps, `Showing ${issues.length} issues; there are more (use --limit or --all).`);
}
