import type { QueryOf, Schemas } from "@tracker/sdk";
import {
  ISSUE_SORTS,
  ISSUE_SPECIAL_FILTERS,
  PRIORITY_NAMES,
  readListFilters,
  STATE_TYPES,
  writeListFilters,
} from "@tracker/sdk";
import { CommandError, type Deps, defineCommand, type Opts, splitList, UsageError } from "../../command.js";
import { printList, say } from "../../output.js";
import { collectPages, parseLimit } from "../../paging.js";
import { issueColumns } from "./columns.js";

export const spec = defineCommand({
  summary: "List issues, with the same filters as the app's views",
  description:
    "Every filter is ANDed with every other. Open issues are listed unless you say otherwise, as gh does:\n" +
    "--state closed lists completed and canceled ones, --state all every one; --state-type, a workflow state\n" +
    "name or a --completed-… window choose for themselves. --view runs one of your saved views; flags given\n" +
    "with it replace the view's value of that filter.",
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
      value: "STATE",
      description: 'open (default), closed, all, or a workflow state name of --team, e.g. "In Progress"',
    },
    stateType: {
      type: "string",
      value: "TYPES",
      description: "Comma-separated state types",
      choices: STATE_TYPES,
      list: true,
    },
    assignee: {
      type: "string",
      short: "a",
      value: "USER",
      description: "Assignee email, id, `me`, or `none` (unassigned)",
    },
    creator: { type: "string", value: "USER", description: "Creator email, id, or `me`" },
    project: { type: "string", short: "p", value: "NAME", description: "Project name or id" },
    parent: {
      type: "string",
      value: "ISSUE",
      description: "Sub-issues of ISSUE (e.g. ENG-1); `none`: top-level only; `any`: has a parent",
    },
    priority: {
      type: "string",
      value: "NAMES",
      description:
        "Comma-separated priorities by name or number (`urgent` or 1; `none` or 0), any of which matches",
      choices: [...PRIORITY_NAMES, "0", "1", "2", "3", "4"],
      list: true,
    },
    estimateMin: { type: "string", value: "N", description: "Estimate at least N" },
    estimateMax: { type: "string", value: "N", description: "Estimate at most N" },
    dueAfter: { type: "string", value: "DATE", description: "Due on or after DATE (YYYY-MM-DD)" },
    dueBefore: { type: "string", value: "DATE", description: "Due before DATE (YYYY-MM-DD)" },
    cycle: { type: "string", value: "N", description: "Cycle number, or `current` (needs --team)" },
    label: {
      type: "string",
      short: "l",
      multiple: true,
      value: "NAME",
      description: "Label name; repeat or comma-separate, all must match; `none`: no labels",
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
    archived: {
      type: "boolean",
      description: "List only archived issues (`tracker issues archive`), in every state unless --state says",
    },
    view: { type: "string", value: "NAME", description: "Run a saved view's filters (name or id)" },
    limit: {
      type: "string",
      short: "L",
      value: "N",
      description: 'Most issues to list (default 50), or "all"',
    },
    all: { type: "boolean", description: "List every matching issue (same as --limit all)" },
    web: { type: "boolean", description: "Open the list on the web board instead" },
  },
  examples: [
    "tracker issues list --team ENG --state-type started",
    "tracker issues list --state closed --completed-after 2026-11-01",
    "tracker issues list --assignee me --special overdue,blocked",
    "tracker issues list --priority urgent,high --label bug --due-before 2026-12-31",
    "tracker issues list --parent none --assignee none",
    "tracker issues list --archived",
    'tracker issues list --view "My overdue"',
    "tracker issues list --team ENG --completed-after 2026-11-01 --completed-before 2026-12-01",
    "tracker issues list -q 'login bug' --json identifier,title,state",
    "tracker issues list --limit all --jq '.[] | select(.priority == 1) | .identifier'",
  ],
});

type IssueQuery = QueryOf<"listIssues">;

/** gh's words for `--state`: which state types each lists (`all`: no filter). */
const STATE_WORDS: Record<string, IssueQuery["stateType"]> = {
  open: ["backlog", "unstarted", "started"],
  closed: ["completed", "canceled"],
  all: undefined,
};

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
  // A view stores the list query's filters (the SDK's LIST_FILTERS, from the contract).
  const query: IssueQuery = readListFilters("issues", view.filters);
  if (view.team && query.team === undefined) query.team = view.team;
  if (view.sort) query.sort = view.sort as IssueQuery["sort"];
  return query;
}

/** Turns flags into the SDK's query (values the contract does not allow were refused while parsing). */
export function toQuery(opts: Opts<typeof spec>): IssueQuery {
  const query: IssueQuery = {};
  if (opts.team) query.team = opts.team;
  const word = opts.state?.toLowerCase();
  if (word !== undefined && word in STATE_WORDS) {
    const types = STATE_WORDS[word];
    if (types) query.stateType = types;
  } else if (opts.state) query.state = opts.state;
  const stateTypes = splitList(opts.stateType);
  if (stateTypes) query.stateType = stateTypes as IssueQuery["stateType"];
  if (opts.assignee) query.assignee = opts.assignee;
  if (opts.creator) query.creator = opts.creator;
  if (opts.project) query.project = opts.project;
  if (opts.parent) query.parent = opts.parent;
  const priorities = splitList(opts.priority);
  if (priorities)
    query.priority = priorities.map((p) => (/^\d$/.test(p) ? Number(p) : p)) as IssueQuery["priority"];
  const estimateMin = parseBound("--estimate-min", opts.estimateMin);
  if (estimateMin !== undefined) query.estimateMin = estimateMin;
  const estimateMax = parseBound("--estimate-max", opts.estimateMax);
  if (estimateMax !== undefined) query.estimateMax = estimateMax;
  if (opts.dueAfter) query.dueAfter = opts.dueAfter;
  if (opts.dueBefore) query.dueBefore = opts.dueBefore;
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
  if (opts.archived) query.archived = "true";
  return query;
}

/** An estimate bound: a whole number, refused as a usage error before any call otherwise. */
function parseBound(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value))
    throw new UsageError(`invalid value "${value}" for ${flag}; expected a whole number`);
  return Number(value);
}

/**
 * Open issues unless the flags or the view choose states (or a completion window, which open ones never
 * match, or archived issues, which are mostly finished ones).
 */
export function withDefaultState(query: IssueQuery, stateFlag: string | undefined): IssueQuery {
  const chosen =
    stateFlag !== undefined ||
    query.state !== undefined ||
    query.stateType !== undefined ||
    query.completedAfter !== undefined ||
    query.completedBefore !== undefined ||
    query.archived === "true";
  return chosen ? query : { ...query, stateType: STATE_WORDS.open };
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const flags = toQuery(opts);
  const limit = parseLimit(opts.limit, opts.all);
  const query = withDefaultState(
    opts.view ? { ...(await viewQuery(deps, opts.view)), ...flags } : flags,
    opts.state,
  );
  if (opts.web) {
    const { boardUrl, openInBrowser } = await import("../../browser.js");
    const { team, sort, ...filters } = query;
    const search = writeListFilters("issues", filters);
    if (sort) search.set("sort", sort);
    const text = search.toString().replace(/%2C/g, ",");
    const route = `${team ? `team/${encodeURIComponent(team.toUpperCase())}/list` : "issues"}${text ? `?${text}` : ""}`;
    return openInBrowser(deps, await boardUrl(deps, route), false);
  }
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
