import type { BodyOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { printJson, say } from "../../output.js";
import { findCycle, instant } from "./find.js";

export const spec = defineCommand({
  summary: "Rename or reschedule a cycle",
  description: "The cycle is its number or `current` with --team, or its id. `--name none` clears the name.",
  args: ["cycle"],
  options: {
    team: {
      type: "string",
      short: "t",
      value: "KEY",
      description: "Team key, to name the cycle by number",
      complete: "teams",
    },
    name: { type: "string", short: "n", value: "NAME", description: "New name; `none` clears" },
    starts: { type: "string", value: "DATE", description: "New start, YYYY-MM-DD or ISO time" },
    ends: { type: "string", value: "DATE", description: "New end, YYYY-MM-DD or ISO time" },
  },
  examples: ['tracker cycles edit 12 --team ENG --name "Sprint 12" --ends 2025-03-14'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const body: BodyOf<"updateCycle"> = {};
  if (opts.name !== undefined) body.name = opts.name === "none" ? null : opts.name;
  if (opts.starts) body.startsAt = instant("starts", opts.starts);
  if (opts.ends) body.endsAt = instant("ends", opts.ends);
  if (Object.keys(body).length === 0)
    throw new UsageError("nothing to change; pass --name, --starts or --ends");
  const { id } = await findCycle(deps, opts.cycle, opts.team);
  const cycle = await deps.tracker.cycles.update(id, body, deps.call);
  if (opts.json) return printJson(deps, cycle);
  if (deps.isTTY) say(deps, `Updated cycle ${cycle.number}`);
  deps.stdout.write(`${cycle.number}\n`);
}
