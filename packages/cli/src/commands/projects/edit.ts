import type { BodyOf } from "@tracker/sdk";
import { PROJECT_STATUSES } from "@tracker/sdk";
import { type Deps, dateFlag, defineCommand, type Opts, splitList, UsageError } from "../../command.js";
import { planningBody, planningOptions, printSaved } from "../../planning.js";

export const spec = defineCommand({
  summary: "Change a project: name, teams, status, lead, initiative, dates, description",
  description: "`none` clears --lead, --initiative, --start and --target. --team replaces the set of teams.",
  args: ["project"],
  options: {
    name: { type: "string", short: "n", value: "NAME", description: "New name" },
    team: {
      type: "string",
      short: "t",
      multiple: true,
      value: "KEY",
      description: "Replace the teams; repeat or comma-separate",
      complete: "teams",
    },
    ...planningOptions("edit", PROJECT_STATUSES, "backlog"),
    initiative: {
      type: "string",
      short: "i",
      value: "NAME",
      description: "Initiative name or id; `none` detaches",
    },
    start: { type: "string", value: "DATE", description: "Start date YYYY-MM-DD; `none` clears" },
  },
  examples: [
    "tracker projects edit Launch --status started --target 2025-10-15",
    'tracker projects edit Launch --name "Launch v2"',
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const body = (await planningBody(deps, "edit", opts)) as BodyOf<"updateProject">;
  if (opts.name) body.name = opts.name;
  const teams = splitList(opts.team);
  if (teams) body.teams = teams;
  if (opts.initiative !== undefined) body.initiative = opts.initiative === "none" ? null : opts.initiative;
  if (opts.start !== undefined) body.startDate = dateFlag("start", opts.start, true);
  if (Object.keys(body).length === 0) {
    throw new UsageError(
      "nothing to change; pass at least one of --name, --team, --description, --status, --lead, --initiative, --start, --target",
    );
  }
  const project = await deps.tracker.projects.update(opts.project, body, deps.call);
  return printSaved(deps, opts.json, "Updated project", project);
}
