import type { BodyOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, required } from "../../command.js";
import { printJson, say } from "../../output.js";
import { parseFilters } from "./filters.js";

export const VIEW_OPTIONS = {
  team: {
    type: "string",
    short: "t",
    value: "KEY",
    description: "Scope to a team (`none` for workspace-wide)",
    complete: "teams",
  },
  filter: {
    type: "string",
    short: "f",
    multiple: true,
    value: "KEY=VALUE",
    description:
      "A filter of the kind's list, e.g. stateType=started,unstarted or special=overdue; repeatable",
  },
  sort: {
    type: "string",
    value: "KEY",
    description: "Sort key of the kind, e.g. -priority (`none` for the default)",
  },
  display: {
    type: "string",
    value: "MODE",
    description: "How the app shows it",
    choices: ["list", "board", "timeline"],
  },
  grouping: {
    type: "string",
    value: "BY",
    description: "How the app groups it",
    choices: [
      "none",
      "status",
      "assignee",
      "priority",
      "project",
      "cycle",
      "label",
      "team",
      "health",
      "lead",
      "initiative",
    ],
  },
  favorite: { type: "boolean", description: "Mark as a favorite" },
} as const;

export const spec = defineCommand({
  summary: "Save a view: a named set of filters",
  args: [],
  options: {
    name: { type: "string", short: "n", value: "NAME", description: "View name (required)" },
    kind: {
      type: "string",
      value: "KIND",
      description: "What it lists (default issues)",
      choices: ["issues", "projects", "initiatives"],
    },
    ...VIEW_OPTIONS,
  },
  examples: [
    'tracker views create --name "My overdue" --filter assignee=me --filter special=overdue --sort -priority',
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const name = await required(deps, "name", opts.name, () => deps.prompt.input("View name"));
  type Body = BodyOf<"createView">;
  const kind = (opts.kind ?? "issues") as NonNullable<Body["kind"]>;
  const body: Body = { name, kind };
  if (opts.team) body.team = opts.team === "none" ? null : opts.team;
  const filters = parseFilters(opts.filter, kind);
  if (filters) body.filters = filters;
  if (opts.sort) body.sort = (opts.sort === "none" ? null : opts.sort) as Body["sort"];
  if (opts.display) body.display = opts.display as Body["display"];
  if (opts.grouping) body.grouping = opts.grouping as Body["grouping"];
  if (opts.favorite) body.favorite = true;
  const view = await deps.tracker.views.create(body, deps.call);
  if (opts.json) return printJson(deps, view);
  if (deps.isTTY) say(deps, `Saved view "${view.name}"`);
  deps.stdout.write(`${view.id}\n`);
}
