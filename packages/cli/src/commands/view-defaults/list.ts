import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList } from "../../output.js";
import { formatFilters } from "../views/filters.js";

export const spec = defineCommand({
  summary: "List the view defaults that apply to you (yours win over the workspace's)",
  args: [],
  options: { viewKey: { type: "string", short: "k", value: "KEY", description: "Only this view key" } },
  examples: ["tracker view-defaults list", "tracker view-defaults list --view-key issues:team:ENG --json"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const defaults = await deps.tracker.viewDefaults.list(
    opts.viewKey ? { viewKey: opts.viewKey } : {},
    deps.call,
  );
  await printList<Schemas["ViewDefault"]>(
    deps,
    opts,
    defaults,
    [
      { header: "VIEW KEY", value: (d) => d.viewKey, style: (_, c) => c.bold },
      { header: "SCOPE", value: (d) => d.scope },
      {
        header: "FILTERS",
        value: (d) => JSON.stringify(d.filters),
        tty: (d) => formatFilters(d.filters),
        flex: true,
      },
      { header: "SORT", value: (d) => d.sort ?? "" },
      { header: "DISPLAY", value: (d) => d.display ?? "" },
      { header: "GROUPING", value: (d) => d.grouping ?? "" },
      { header: "HIDDEN", value: (d) => d.hidden.join(",") },
    ],
    "No view defaults.",
  );
}
