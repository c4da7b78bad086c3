import type { BodyOf } from "@tracker/sdk";
import { PROJECT_STATUSES } from "@tracker/sdk";
import { type Deps, dateFlag, defineCommand, type Opts, required, splitList } from "../../command.js";
import { textFrom } from "../../input.js";
import { printJson, say } from "../../output.js";
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
    description: { type: "string", short: "d", value: "TEXT", description: "Description, in Markdown" },
    descriptionFile: {
      type: "string",
      short: "F",
      value: "FILE",
      description: "Read the description from a file (- for standard input)",
    },
    status: {
      type: "string",
      short: "s",
      value: "STATUS",
      description: "Status (default backlog)",
      choices: PROJECT_STATUSES,
    },
    lead: { type: "string", value: "USER", description: "Lead: email, id or `me`" },
    initiative: { type: "string", short: "i", value: "NAME", description: "Initiative name or id" },
    start: { type: "string", value: "DATE", description: "Start date, YYYY-MM-DD" },
    target: { type: "string", value: "DATE", description: "Target date, YYYY-MM-DD" },
  },
  examples: ['tracker projects create --name "Launch" --team ENG,DES --lead me --target 2025-09-30'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const name = await required(deps, "name", opts.name, () => deps.prompt.input("Project name"));
  const teams = splitList(opts.team) ?? [await required(deps, "team", undefined, () => pickTeam(deps))];
  const body: BodyOf<"createProject"> = { name, teams };
  const description = await textFrom(
    deps,
    { flag: "description", value: opts.description },
    { flag: "description-file", value: opts.descriptionFile },
  );
  if (description !== undefined) body.description = description;
  if (opts.status) body.status = opts.status as BodyOf<"createProject">["status"];
  if (opts.lead) body.lead = opts.lead;
  if (opts.initiative) body.initiative = opts.initiative;
  if (opts.start) body.startDate = dateFlag("start", opts.start);
  if (opts.target) body.targetDate = dateFlag("target", opts.target);
  const project = await deps.tracker.projects.create(body, deps.call);
  if (opts.json) return printJson(deps, project);
  if (deps.isTTY) say(deps, `Created project ${project.name} [${project.status}]`);
  deps.stdout.write(`${project.id}\n`);
}
