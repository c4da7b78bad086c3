import type { QueryOf, Schemas } from "@tracker/sdk";
import { HEALTH_VALUES, PROJECT_SORTS, PROJECT_SPECIAL_FILTERS, PROJECT_STATUSES } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, splitList } from "../../command.js";
import { printList, say } from "../../output.js";
import { collectPages, parseLimit } from "../../paging.js";
import { projectColumns } from "./columns.js";

export const spec = defineCommand({
  summary: "List projects with their progress and health",
  description: "Filters are ANDed; comma lists match any of their values.",
  args: [],
  options: {
    initiative: { type: "string", short: "i", value: "NAME", description: "Initiative name or id" },
    status: {
      type: "string",
      short: "s",
      value: "LIST",
      description: "Comma-separated statuses",
      choices: PROJECT_STATUSES,
      list: true,
    },
    lead: {
      type: "string",
      value: "USERS",
      description: "Comma-separated leads (email, id, `me`, or `none`)",
    },
    team: {
      type: "string",
      short: "t",
      value: "KEYS",
      description: "Comma-separated team keys",
      complete: "teams",
    },
    health: {
      type: "string",
      value: "LIST",
      description: "Comma-separated health values",
      choices: HEALTH_VALUES,
      list: true,
    },
    special: {
      type: "string",
      value: "FILTERS",
      description: "Comma-separated computed filters",
      choices: PROJECT_SPECIAL_FILTERS,
      list: true,
    },
    sort: {
      type: "string",
      value: "KEY",
      description: "Sort key; prefix - to reverse (default -updated)",
      choices: PROJECT_SORTS,
    },
    limit: {
      type: "string",
      short: "L",
      value: "N",
      description: 'Most projects to list (default 50), or "all"',
    },
    all: { type: "boolean", description: "List every matching project" },
  },
  examples: [
    "tracker projects list --status started --health off_track,at_risk",
    "tracker projects list --special led_by_me --sort target",
    "tracker projects list --json name,progress --jq '.[] | \"\\(.name) \\(.progress.percent)%\"'",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  type Query = QueryOf<"listProjects">;
  const query: Query = {};
  if (opts.initiative) query.initiative = opts.initiative;
  const list = <K extends keyof Query>(key: K, value: string | undefined) => {
    const items = splitList(value);
    if (items) query[key] = items as Query[K];
  };
  list("status", opts.status);
  list("lead", opts.lead);
  list("team", opts.team);
  list("health", opts.health);
  list("special", opts.special);
  if (opts.sort) query.sort = opts.sort as Query["sort"];
  const { items, more } = await collectPages<Schemas["Project"]>(
    deps,
    parseLimit(opts.limit, opts.all),
    (page) => deps.tracker.projects.list({ ...query, ...page }, deps.call),
    "projects",
  );
  await printList(deps, opts, items, projectColumns, "No projects match.");
  if (deps.isTTY && !opts.json && more)
    say(deps, `Showing ${items.length} projects; there are more (use --limit all).`);
}
