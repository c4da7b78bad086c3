import type { QueryOf, Schemas } from "@tracker/sdk";
import {
  HEALTH_VALUES,
  INITIATIVE_SORTS,
  INITIATIVE_SPECIAL_FILTERS,
  INITIATIVE_STATUSES,
} from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, splitList } from "../../command.js";
import { printList, say } from "../../output.js";
import { collectPages, parseLimit } from "../../paging.js";
import { initiativeColumns } from "./columns.js";

export const spec = defineCommand({
  summary: "List initiatives with their progress and health",
  description: "Filters are ANDed; comma lists match any of their values.",
  args: [],
  options: {
    status: {
      type: "string",
      short: "s",
      value: "LIST",
      description: "Comma-separated statuses",
      choices: INITIATIVE_STATUSES,
      list: true,
    },
    lead: {
      type: "string",
      value: "USERS",
      description: "Comma-separated leads (email, id, `me`, or `none`)",
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
      choices: INITIATIVE_SPECIAL_FILTERS,
      list: true,
    },
    sort: {
      type: "string",
      value: "KEY",
      description: "Sort key; prefix - to reverse (default -updated)",
      choices: INITIATIVE_SORTS,
    },
    limit: {
      type: "string",
      short: "L",
      value: "N",
      description: 'Most initiatives to list (default 50), or "all"',
    },
    all: { type: "boolean", description: "List every matching initiative" },
  },
  examples: [
    "tracker initiatives list --status active --sort target",
    "tracker initiatives list --special off_track",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  type Query = QueryOf<"listInitiatives">;
  const query: Query = {};
  const list = <K extends keyof Query>(key: K, value: string | undefined) => {
    const items = splitList(value);
    if (items) query[key] = items as Query[K];
  };
  list("status", opts.status);
  list("lead", opts.lead);
  list("health", opts.health);
  list("special", opts.special);
  if (opts.sort) query.sort = opts.sort as Query["sort"];
  const { items, more } = await collectPages<Schemas["Initiative"]>(
    deps,
    parseLimit(opts.limit, opts.all),
    (page) => deps.tracker.initiatives.list({ ...query, ...page }, deps.call),
    "initiatives",
  );
  await printList(deps, opts, items, initiativeColumns, "No initiatives match.");
  if (deps.isTTY && !opts.json && more)
    say(deps, `Showing ${items.length} initiatives; there are more (use --limit all).`);
}
