import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, printTable } from "../../output.js";

export const spec = defineCommand({
  name: "teams list",
  summary: "List your teams and their workflow states",
  args: [],
  options: {},
  examples: ["tracker teams list", "tracker teams list --json | jq '.[].states[].name'"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const teams = await deps.tracker.teams.list();
  if (opts.json) return printJson(deps, teams);
  printTable(deps, teams, [
    { header: "KEY", value: (t) => t.key },
    { header: "NAME", value: (t) => t.name, tty: (t) => (t.personal ? `${t.name} (personal)` : t.name) },
    {
      header: "STATES",
      value: (t) => t.states.map((s) => s.name).join(","),
      tty: (t) => t.states.map((s) => s.name).join(", "),
    },
  ]);
}
