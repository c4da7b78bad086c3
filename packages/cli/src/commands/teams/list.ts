import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList } from "../../output.js";

export const spec = defineCommand({
  summary: "List your teams and their workflow states",
  description: "With --all, every team you may see, joined or not (without their states).",
  args: [],
  options: { all: { type: "boolean", short: "A", description: "Every team you may see, joined or not" } },
  examples: ["tracker teams list", "tracker teams list --all", "tracker teams list --jq '.[].key'"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  if (opts.all) {
    const teams = await deps.tracker.teams.listAll(deps.call);
    return printList(deps, opts, teams, [
      { header: "KEY", value: (t) => t.key, style: (_, c) => c.cyan },
      { header: "NAME", value: (t) => t.name, flex: true },
      { header: "JOINED", value: (t) => (t.joined ? "joined" : ""), style: (_, c) => c.green },
    ]);
  }
  const teams = await deps.tracker.teams.list(deps.call);
  await printList(deps, opts, teams, [
    { header: "KEY", value: (t) => t.key, style: (_, c) => c.cyan },
    { header: "NAME", value: (t) => t.name, tty: (t) => (t.personal ? `${t.name} (personal)` : t.name) },
    {
      header: "STATES",
      value: (t) => t.states.map((s) => s.name).join(","),
      tty: (t) => t.states.map((s) => s.name).join(", "),
      flex: true,
    },
  ]);
}
