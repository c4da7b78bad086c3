import type { BodyOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, required } from "../../command.js";
import { printJson, say } from "../../output.js";
import { pickTeam } from "../../resolve.js";
import { instant } from "./find.js";

export const spec = defineCommand({
  summary: "Start a team's next cycle, rolling over unfinished issues",
  description:
    "Starts the next cycle now (or at --starts) for the team's cycle length, unless --ends says otherwise.\n" +
    "Without --starts a running cycle ends now. The unfinished issues of the cycle it follows move into the\n" +
    "new one at once, unless --no-rollover. To plan a later cycle and leave the running one alone:\n" +
    "--starts DATE --no-rollover.",
  args: [],
  options: {
    team: { type: "string", short: "t", value: "KEY", description: "Team key (required)", complete: "teams" },
    name: { type: "string", short: "n", value: "NAME", description: "Cycle name" },
    starts: { type: "string", value: "DATE", description: "Start, YYYY-MM-DD or ISO time" },
    ends: { type: "string", value: "DATE", description: "End, YYYY-MM-DD or ISO time" },
    noRollover: {
      type: "boolean",
      description: "Leave the previous cycle's unfinished issues where they are",
    },
  },
  examples: [
    "tracker cycles create --team ENG",
    'tracker cycles create -t ENG --name "Sprint 12" --starts 2027-01-04 --no-rollover',
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const team = await required(deps, "team", opts.team, () => pickTeam(deps));
  const body: BodyOf<"createCycle"> = { team };
  if (opts.name) body.name = opts.name;
  if (opts.starts) body.startsAt = instant("starts", opts.starts);
  if (opts.ends) body.endsAt = instant("ends", opts.ends);
  if (opts.noRollover) body.rollover = false;
  const result = await deps.tracker.cycles.create(body, deps.call);
  if (opts.json) return printJson(deps, result);
  const { cycle, rolledOver, previous, endedPrevious } = result;
  // The server's clock is a moment ahead of ours: a cycle starting within a second starts now.
  const verb = Date.parse(cycle.startsAt) <= Date.now() + 1_000 ? "started" : "created";
  const issues = (n: number) => `${n} unfinished issue${n === 1 ? "" : "s"}`;
  const parts = [
    ...(endedPrevious && previous ? [`Ended cycle ${previous.number}`] : []),
    `${verb} cycle ${cycle.number} of ${team} (${cycle.startsAt.slice(0, 10)} to ${cycle.endsAt.slice(0, 10)})`,
    previous
      ? body.rollover === false
        ? `cycle ${previous.number} keeps its unfinished issues`
        : `${issues(rolledOver)} moved from cycle ${previous.number}`
      : "the team's first cycle",
  ];
  const line = parts.join(", ");
  say(deps, line.charAt(0).toUpperCase() + line.slice(1));
  deps.stdout.write(`${cycle.number}\n`);
}
