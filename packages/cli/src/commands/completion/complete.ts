import { type Deps, defineCommand, type Opts } from "../../command.js";

export const spec = defineCommand({
  summary: "Values for shell completion (used by the completion scripts)",
  args: ["kind"],
  options: {},
  examples: ["tracker __complete teams"],
});

/** Prints one value per line; completion must never hang a shell, so the server gets two seconds. */
export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  if (opts.kind !== "teams") return;
  const tracker = await deps.makeTracker({ ...deps.connection, timeoutMs: 2000 });
  for (const team of await tracker.teams.list(deps.call)) deps.stdout.write(`${team.key}\n`);
}
