import type { BodyOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { printJson, say } from "../../output.js";
import { VIEW_OPTIONS } from "./create.js";
import { findView, parseFilters } from "./filters.js";

export const spec = defineCommand({
  summary: "Change a saved view (by name or id)",
  description: "--filter replaces all of the view's filters.",
  args: ["view"],
  options: {
    name: { type: "string", short: "n", value: "NAME", description: "New name" },
    ...VIEW_OPTIONS,
    unfavorite: { type: "boolean", description: "No longer a favorite" },
  },
  examples: ['tracker views edit "My overdue" --filter assignee=me --filter special=overdue,blocked'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const view = await findView(deps, opts.view);
  type Body = BodyOf<"updateView">;
  const body: Body = {};
  if (opts.name) body.name = opts.name;
  if (opts.team) body.team = opts.team === "none" ? null : opts.team;
  const filters = parseFilters(opts.filter, view.kind);
  if (filters) body.filters = filters;
  if (opts.sort) body.sort = (opts.sort === "none" ? null : opts.sort) as Body["sort"];
  if (opts.display) body.display = opts.display as Body["display"];
  if (opts.grouping) body.grouping = opts.grouping as Body["grouping"];
  if (opts.favorite) body.favorite = true;
  if (opts.unfavorite) body.favorite = false;
  if (Object.keys(body).length === 0) throw new UsageError("nothing to change");
  await deps.tracker.views.update(view.id, body, deps.call);
  const updated = { ...view, ...body };
  if (opts.json) return printJson(deps, updated);
  if (deps.isTTY) say(deps, `Updated view "${updated.name}"`);
  deps.stdout.write(`${view.id}\n`);
}
