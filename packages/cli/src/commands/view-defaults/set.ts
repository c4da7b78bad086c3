import type { BodyOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, splitList } from "../../command.js";
import { printJson, say } from "../../output.js";
import { parseFilters } from "../views/filters.js";

export const spec = defineCommand({
  summary: "Set the display defaults of a view key, yours or (admins) the workspace's",
  description: "Replaces the whole entry: what is not given takes its default.",
  args: ["viewKey"],
  options: {
    scope: {
      type: "string",
      value: "SCOPE",
      description: "user (yours, default) or workspace (admins)",
      choices: ["user", "workspace"],
    },
    filter: {
      type: "string",
      short: "f",
      multiple: true,
      value: "KEY=VALUE",
      description: "A default filter; repeatable",
    },
    sort: { type: "string", value: "KEY", description: "Default sort key" },
    display: {
      type: "string",
      value: "MODE",
      description: "Default display",
      choices: ["list", "board", "timeline"],
    },
    grouping: { type: "string", value: "BY", description: "Default grouping" },
    hidden: {
      type: "string",
      multiple: true,
      value: "NAME",
      description: "Hide a column or group; repeat or comma-separate",
    },
  },
  examples: ["tracker view-defaults set my-issues --sort -updated --display board --hidden estimate"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  type Body = BodyOf<"putViewDefault">;
  const body: Body = { viewKey: opts.viewKey };
  if (opts.scope) body.scope = opts.scope as Body["scope"];
  const filters = parseFilters(opts.filter, "issues");
  if (filters) body.filters = filters;
  if (opts.sort) body.sort = opts.sort as Body["sort"];
  if (opts.display) body.display = opts.display as Body["display"];
  if (opts.grouping) body.grouping = opts.grouping as Body["grouping"];
  const hidden = splitList(opts.hidden);
  if (hidden) body.hidden = hidden;
  const stored = await deps.tracker.viewDefaults.put(body, deps.call);
  if (opts.json) return printJson(deps, stored);
  say(deps, `Set the ${stored.scope} defaults of ${stored.viewKey}`);
}
