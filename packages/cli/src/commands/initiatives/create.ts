import type { BodyOf } from "@tracker/sdk";
import { INITIATIVE_STATUSES } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, required } from "../../command.js";
import { planningBody, planningOptions, printSaved } from "../../planning.js";

export const spec = defineCommand({
  summary: "Create an initiative",
  description: "Attach projects with 'tracker projects edit <project> --initiative <name>'.",
  args: [],
  options: {
    name: { type: "string", short: "n", value: "NAME", description: "Initiative name (required)" },
    ...planningOptions("create", INITIATIVE_STATUSES, "planned"),
  },
  examples: ['tracker initiatives create --name "Q3 growth" --lead me --target 2025-09-30'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const name = await required(deps, "name", opts.name, () => deps.prompt.input("Initiative name"));
  const body = { name, ...(await planningBody(deps, "create", opts)) } as BodyOf<"createInitiative">;
  const initiative = await deps.tracker.initiatives.create(body, deps.call);
  return printSaved(deps, opts.json, "Created initiative", initiative);
}
