import { TrackerError } from "@tracker/sdk";
import { CommandError, type Deps, defineCommand, type Opts } from "../../command.js";
import { palette, printFields, printJson, say, stateStyle } from "../../output.js";

export const spec = defineCommand({
  summary: "Show a team: settings, workflow states and members",
  args: ["team"],
  options: {},
  examples: ["tracker teams view ENG"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const key = opts.team.toUpperCase();
  const ref = /^[0-9a-f-]{36}$/i.test(opts.team) ? opts.team : key;
  const team = await deps.tracker.teams.get(ref, deps.call).catch(async (err: unknown) => {
    if (!(err instanceof TrackerError) || err.code !== "not_found") throw err;
    const teams = await deps.tracker.teams.list(deps.call);
    throw new CommandError(
      `no team ${key}; your teams: ${teams.map((t) => t.key).join(", ") || "none"} (all: 'tracker teams list --all')`,
    );
  });
  const members = await deps.tracker.teams.members(team.key, deps.call);
  if (opts.json) return printJson(deps, { ...team, members });
  // A team one has not joined can be read; joining it is one command away.
  if (!team.joined)
    say(deps, `You are not in team ${team.key}; join it with 'tracker teams join ${team.key}'.`);
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
    ["joined", team.joined ? "yes" : "no"],
    ["members", members.map((m) => (deps.isTTY ? m.name : m.email)).join(deps.isTTY ? ", " : ",")],
  ]);
}
