import { CommandError, type Deps, defineCommand, type Opts } from "../../command.js";
import { palette, printFields, printJson, stateStyle } from "../../output.js";

export const spec = defineCommand({
  summary: "Show a team: settings, workflow states and members",
  args: ["team"],
  options: {},
  examples: ["tracker teams view ENG"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const key = opts.team.toUpperCase();
  const teams = await deps.tracker.teams.list(deps.call);
  const team = teams.find((t) => t.key === key || t.id === opts.team);
  if (!team) {
    // Only a team the caller can see but has not joined can be joined; anything else does not exist for them.
    const all = await deps.tracker.teams.listAll(deps.call);
    const listed = all.find((t) => t.key === key || t.id === opts.team);
    if (!listed)
      throw new CommandError(
        `no team ${key}; your teams: ${teams.map((t) => t.key).join(", ") || "none"} (all: 'tracker teams list --all')`,
      );
    throw new CommandError(`you are not in team ${key}; join it with 'tracker teams join ${key}'`);
  }
  const members = await deps.tracker.teams.members(team.key, deps.call);
  if (opts.json) return printJson(deps, { ...team, members });
  const c = palette(deps);
  if (deps.isTTY)
    deps.stdout.write(
      `${c.bold(team.name)} ${c.cyan(team.key)}${team.personal ? c.dim(" (personal)") : ""}\n`,
    );
  printFields(deps, [
    ...(deps.isTTY
      ? []
      : ([
          ["key", team.key],
          ["name", team.name],
        ] as [string, string][])),
    [
      "cycles",
      team.cyclesEnabled
        ? `every ${team.cycleLengthWeeks} week${team.cycleLengthWeeks === 1 ? "" : "s"}`
        : "off",
    ],
    ["estimates", team.estimateScale],
    [
      "states",
      team.states
        .map((s) => (deps.isTTY ? stateStyle(c, s.type)(s.name) : s.name))
        .join(deps.isTTY ? ", " : ","),
    ],
    ["members", members.map((m) => (deps.isTTY ? m.name : m.email)).join(deps.isTTY ? ", " : ",")],
  ]);
}
