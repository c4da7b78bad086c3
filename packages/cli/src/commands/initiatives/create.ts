import type { BodyOf } from "@tracker/sdk";
import { INITIATIVE_STATUSES } from "@tracker/sdk";
import { type Deps, dateFlag, defineCommand, type Opts, required } from "../../command.js";
import { textFrom } from "../../input.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Create an initiative",
  description: "Attach projects with 'tracker projects edit <project> --initiative <name>'.",
  args: [],
  options: {
    name: { type: "string", short: "n", value: "NAME", description: "Initiative name (required)" },
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
      description: "Status (default planned)",
      choices: INITIATIVE_STATUSES,
    },
    lead: { type: "string", value: "USER", description: "Lead: email, id or `me`" },
    target: { type: "string", value: "DATE", description: "Target date, YYYY-MM-DD" },
  },
  examples: ['tracker initiatives create --name "Q3 growth" --lead me --target 2025-09-30'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const name = await required(deps, "name", opts.name, () => deps.prompt.input("Initiative name"));
  const body: BodyOf<"createInitiative"> = { name };
  const description = await textFrom(
    deps,
    { flag: "description", value: opts.description },
    { flag: "description-file", value: opts.descriptionFile },
  );
  if (description !== undefined) body.description = description;
  if (opts.status) body.status = opts.status as BodyOf<"createInitiative">["status"];
  if (opts.lead) body.lead = opts.lead;
  if (opts.target) body.targetDate = dateFlag("target", opts.target);
  const initiative = await deps.tracker.initiatives.create(body, deps.call);
  if (opts.json) return printJson(deps, initiative);
  if (deps.isTTY) say(deps, `Created initiative ${initiative.name} [${initiative.status}]`);
  deps.stdout.write(`${initiative.id}\n`);
}
