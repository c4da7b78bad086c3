import type { BodyOf } from "@tracker/sdk";
import { INITIATIVE_STATUSES } from "@tracker/sdk";
import { type Deps, dateFlag, defineCommand, type Opts, UsageError } from "../../command.js";
import { textFrom } from "../../input.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Change an initiative: name, status, lead, target, description",
  description: "`none` clears --lead and --target.",
  args: ["initiative"],
  options: {
    name: { type: "string", short: "n", value: "NAME", description: "New name" },
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
      choices: INITIATIVE_STATUSES,
    },
    lead: { type: "string", value: "USER", description: "Lead: email, id or `me`; `none` clears" },
    target: { type: "string", value: "DATE", description: "Target date YYYY-MM-DD; `none` clears" },
  },
  examples: ['tracker initiatives edit "Q3 growth" --status active'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const body: BodyOf<"updateInitiative"> = {};
  if (opts.name) body.name = opts.name;
  const description = await textFrom(
    deps,
    { flag: "description", value: opts.description },
    { flag: "description-file", value: opts.descriptionFile },
  );
  if (description !== undefined) body.description = description;
  if (opts.status) body.status = opts.status as BodyOf<"updateInitiative">["status"];
  if (opts.lead !== undefined) body.lead = opts.lead === "none" ? null : opts.lead;
  if (opts.target !== undefined) body.targetDate = dateFlag("target", opts.target, true);
  if (Object.keys(body).length === 0) {
    throw new UsageError(
      "nothing to change; pass at least one of --name, --description, --status, --lead, --target",
    );
  }
  const initiative = await deps.tracker.initiatives.update(opts.initiative, body, deps.call);
  if (opts.json) return printJson(deps, initiative);
  if (deps.isTTY) say(deps, `Updated initiative ${initiative.name} [${initiative.status}]`);
  deps.stdout.write(`${initiative.id}\n`);
}
