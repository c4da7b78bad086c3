import { type Deps, defineCommand, type Opts, required } from "../../command.js";
import { palette, printJson, printTable } from "../../output.js";
import { pickTeam } from "../../resolve.js";

export const spec = defineCommand({
  summary: "Move issues to another team; each gets a new identifier there",
  description:
    "All or nothing: if one cannot move, none does. Old identifiers keep working. Prints `from<TAB>to`\n" +
    "per issue when piped.",
  args: ["ids..."],
  options: {
    team: {
      type: "string",
      short: "t",
      value: "KEY",
      description: "Target team key or id (required)",
      complete: "teams",
    },
  },
  examples: ["tracker issues move ENG-12 ENG-13 --team OPS"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const team = await required(deps, "team", opts.team, () => pickTeam(deps, "Move to team"));
  const moved = await deps.tracker.issues.move({ identifiers: opts.ids, team }, deps.call);
  if (opts.json) return printJson(deps, moved);
  const c = palette(deps);
  printTable(deps, moved, [
    { header: "FROM", value: (m) => m.from },
    { header: "TO", value: (m) => m.to, style: () => c.cyan },
    {
      header: "NOTES",
      value: (m) =>
        [m.droppedCycle ? "cycle dropped" : "", m.clearedProject ? "project cleared" : ""]
          .filter(Boolean)
          .join(", "),
    },
  ]);
}
