import type { QueryOf } from "@tracker/sdk";
import { INITIATIVE_SORTS, INITIATIVE_SPECIAL_FILTERS, INITIATIVE_STATUSES } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { listPlanning, planningListOptions } from "../../planning.js";
import { initiativeColumns } from "./columns.js";

export const spec = defineCommand({
  summary: "List initiatives with their progress and health",
  description: "Filters are ANDed; comma lists match any of their values.",
  args: [],
  options: planningListOptions("initiatives", {
    statuses: INITIATIVE_STATUSES,
    specials: INITIATIVE_SPECIAL_FILTERS,
    sorts: INITIATIVE_SORTS,
  }),
  examples: [
    "tracker initiatives list --status active --sort target",
    "tracker initiatives list --special off_track",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  await listPlanning(
    deps,
    opts,
    "initiatives",
    {},
    (query) => deps.tracker.initiatives.list(query as QueryOf<"listInitiatives">, deps.call),
    initiativeColumns,
  );
}
