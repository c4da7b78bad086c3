import type { BodyOf } from "@tracker/sdk";
import { INITIATIVE_STATUSES } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { planningBody, planningOptions, printSaved } from "../../planning.js";

export const spec = defineCommand({
  summary: "Change an initiative: name, status, lead, target, description",
  description: "`none` clears --lead and --target.",
  args: ["initiative"],
  options: {
    name: { type: "string", short: "n", value: "NAME", description: "New name" },
    ...planningOptions("edit", INITIATIVE_STATUSES, "planned"),
  },
  examples: ['tracker initiatives edit "Q3 growth" --status active'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const body = (await planningBody(deps, "edit", opts)) as BodyOf<"updateInitiative">;
  if (opts.name) body.name = opts.name;
  if (Object.keys(body).length === 0) {
    throw new UsageError(
      "nothing to change; pass at least one of --name, --description, --status, --lead, --target",
    );
  }
  const initiative = await deps.tracker.initiatives.update(opts.initiative, body, deps.call);
  return printSaved(deps, opts.json, "Updated initiative", initiative);
}
