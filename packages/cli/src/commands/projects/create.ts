import type { BodyOf } from "@tracker/sdk";
import { PROJECT_STATUSES } from "@tracker/sdk";
import { type Deps, dateFlag, defineCommand, type Opts, required, splitList } from "../../command.js";
import { planningBody, planningOptions, printSaved } from "../../planning.js";
import { pickTeam } from "../../resolve.js";

export const spec = defineCommand({
  summary: "Create a project for one or more teams",
  args: [],
  options: {
    name: {
      type: "string",
      short: "n",
      value: "NAME",
      description: "Project name, unique in the workspace (required)",
    },
    team: {
      type: "string",
      short: "t",
      multiple: true,
      value: "KEY",
      description: "Team key; repeat or comma-separate (required)",
      complete: "teams",
    },
    ...planningOptions("create", PROJECT_STATUSES, "backlog"),
    initiative: { type: "string", short: "i", value: "NAME", description: "Initiative name or id" },
    start: { type: "string", value: "DATE", description: "Start date, YYYY-MM-DD" },
  },
  examples: ['tracker projects create --name "Launch" --team ENG,DES --lead me --target 2025-09-30'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const name = await required(deps, "name", opts.name, () => deps.prompt.input("Project name"));
  const teams = splitList(opts.team) ?? [await required(deps, "team", undefined, () => pickTeam(deps))];
  const body = { name, teams, ...(await planningBody(deps, "create", opts)) } as BodyOf<"createProject">;
  if (opts.initiative) body.initiative = opts.initiative;
  if (opts.start) body.startDate = dateFlag("start", opts.start);
  const project = await deps.tracker.projects.create(body, deps.call);
  return printSaved(deps, opts.json, "Created project", project);
}
