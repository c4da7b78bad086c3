import type { QueryOf } from "@tracker/sdk";
import { PROJECT_SORTS, PROJECT_SPECIAL_FILTERS, PROJECT_STATUSES } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, splitList } from "../../command.js";
import { listPlanning, planningListOptions } from "../../planning.js";
import { emailsWhenPiped } from "../../resolve.js";
import { projectColumns } from "./columns.js";

export const spec = defineCommand({
  summary: "List projects with their progress and health",
  description: "Filters are ANDed; comma lists match any of their values.",
  args: [],
  options: {
    initiative: { type: "string", short: "i", value: "NAME", description: "Initiative name or id" },
    team: {
      type: "string",
      short: "t",
      value: "KEYS",
      description: "Comma-separated team keys",
      complete: "teams",
    },
    ...planningListOptions("projects", {
      statuses: PROJECT_STATUSES,
      specials: PROJECT_SPECIAL_FILTERS,
      sorts: PROJECT_SORTS,
    }),
  },
  examples: [
    "tracker projects list --status started --health off_track,at_risk",
    "tracker projects list --special led_by_me --sort target",
    "tracker projects list --json name,progress --jq '.[] | \"\\(.name) \\(.progress.percent)%\"'",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const extra: Record<string, string | string[]> = {};
  if (opts.initiative) extra.initiative = opts.initiative;
  const teams = splitList(opts.team);
  if (teams) extra.team = teams;
  await listPlanning(
    deps,
    opts,
    "projects",
    extra,
    (query) => deps.tracker.projects.list(query as QueryOf<"listProjects">, deps.call),
    projectColumns(await emailsWhenPiped(deps, opts.json)),
  );
}
