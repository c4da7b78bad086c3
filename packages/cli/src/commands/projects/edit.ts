import type { BodyOf } from "@tracker/sdk";
import { PROJECT_STATUSES } from "@tracker/sdk";
import { type Deps, dateFlag, defineCommand, type Opts, splitList, UsageError } from "../../command.js";
import { textFrom } from "../../input.js";
import { printJson, say } from "../../output.js";

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
    description: { type: "string", short: "d", value: "TEXT", description: "New description, in Markdown" },
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
      description: "New status",
      choices: PROJECT_STATUSES,
    },
    lead: { type: "string", value: "USER", description: "Lead: email, id or `me`; `none` clears" },
    initiative: {
      type: "string",
      short: "i",
      value: "NAME",
      description: "Initiative name or id; `none` detaches",
    },
    start: { type: "string", value: "DATE", description: "Start date YYYY-MM-DD; `none` clears" },
    target: { type: "string", value: "DATE", description: "Target date YYYY-MM-DD; `none` clears" },
  },
  examples: [
    "tracker projects edit Launch --status started --target 2025-10-15",
    'tracker projects edit Launch --name "Launch v2"',
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const body: BodyOf<"updateProject"> = {};
  if (opts.name) body.name = opts.name;
  const teams = splitList(opts.team);
  if (teams) body.teams = teams;
  const description = await textFrom(
    deps,
    { flag: "description", value: opts.description },
    { flag: "description-file", value: opts.descriptionFile },
  );
  if (description !== undefined) body.description = description;
  if (opts.status) body.status = opts.status as BodyOf<"updateProject">["status"];
  if (opts.lead !== undefined) body.lead = opts.lead === "none" ? null : opts.lead;
  if (opts.initiative !== undefined) body.initiative = opts.initiative === "none" ? null : opts.initiative;
  if (opts.start !== undefined) body.startDate = dateFlag("start", opts.start, true);
  if (opts.target !== undefined) body.targetDate = dateFlag("target", opts.target, true);
  if (Object.keys(body).length === 0) {
    throw new UsageError(
      "nothing to change; pass at least one of --name, --team, --description, --status, --lead, --initiative, --start, --target",
    );
  }
  const project = await deps.tracker.projects.update(opts.project, body, deps.call);
  if (opts.json) return printJson(deps, project);
  if (deps.isTTY) say(deps, `Updated project ${project.name} [${project.status}]`);
  deps.stdout.write(`${project.id}\n`);
}
