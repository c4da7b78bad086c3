import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList } from "../../output.js";
import { formatFilters } from "./filters.js";

export const spec = defineCommand({
  summary: "List your saved views, favorites first",
  args: [],
  options: {},
  examples: ["tracker views list", 'tracker issues list --view "My overdue"'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const views = await deps.tracker.views.list(deps.call);
  await printList<Schemas["View"]>(
    deps,
    opts,
    views,
    [
      {
        header: "NAME",
        value: (v) => v.name,
        tty: (v) => (v.favorite ? `★ ${v.name}` : v.name),
        style: (_, c) => c.bold,
      },
      { header: "KIND", value: (v) => v.kind },
      { header: "TEAM", value: (v) => v.team ?? "" },
      {
        header: "FILTERS",
        value: (v) => JSON.stringify(v.filters),
        tty: (v) => formatFilters(v.filters),
        flex: true,
      },
      { header: "SORT", value: (v) => v.sort ?? "" },
      { header: "ID", value: (v) => v.id, style: (_, c) => c.gray },
    ],
    "No saved views yet; save one with 'tracker views create'.",
  );
}
