import { PRIORITY_NAMES, type QueryOf, type ResponseOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, printTable } from "../../output.js";
import { spec as listSpec, toQuery, viewQuery, withDefaultState } from "./list.js";

const { sort: _sort, limit: _limit, all: _all, web: _web, ...filters } = listSpec.options;

/** What `--group-by` takes: the contract's `IssueCountGrouping`. */
const GROUPINGS = [
  "state",
  "stateType",
  "assignee",
  "priority",
  "label",
  "project",
  "cycle",
  "team",
] as const satisfies readonly NonNullable<QueryOf<"countIssues">["groupBy"]>[];
type Grouping = (typeof GROUPINGS)[number];

export const spec = defineCommand({
  summary: "Count issues per state, assignee, priority, label, project, cycle or team",
  description:
    "Counts on the server, with the same filters as `issues list` (open issues unless you say otherwise),\n" +
    "without listing them. An issue with two labels counts under both with --group-by label, so the\n" +
    "groups can add up to more than the total.",
  args: [],
  options: {
    groupBy: {
      type: "string",
      short: "g",
      value: "KEY",
      description: "What to group by (default state)",
      choices: GROUPINGS,
    },
    ...filters,
  },
  examples: [
    "tracker issues count --team ENG",
    "tracker issues count --group-by assignee --state all",
    "tracker issues count --team ENG --cycle current --group-by stateType --state all",
    "tracker issues count --group-by label --json",
  ],
});

type Counts = ResponseOf<"countIssues">;
type Key = Counts["groups"][number]["key"];

/** Each group's key as people read it: names for ids, the priority's name, "none" for null. */
async function namer(deps: Deps, groupBy: Grouping): Promise<(key: Key) => string> {
  const none = { assignee: "Unassigned", label: "No labels", project: "No project", cycle: "No cycle" };
  const byId = async (): Promise<Map<string, string>> => {
    const t = deps.tracker;
    switch (groupBy) {
      case "state":
        return new Map(
          (await t.teams.list(deps.call)).flatMap((team) =>
            team.states.map((s) => [s.id, `${s.name} (${team.key})`] as const),
          ),
        );
      case "team":
        return new Map((await t.teams.list(deps.call)).map((team) => [team.id, team.key]));
      case "assignee":
        return new Map((await t.users.list(deps.call)).map((u) => [u.id, u.name]));
      case "label":
        return new Map((await t.labels.list({}, deps.call)).map((l) => [l.id, l.name]));
      case "project": {
        const projects = new Map<string, string>();
        for await (const p of t.projects.iterate({}, deps.call)) projects.set(p.id, p.name);
        return projects;
      }
      default:
        return new Map();
    }
  };
  const names = await byId();
  return (key) => {
    if (key === null) return (none as Record<string, string>)[groupBy] ?? "None";
    if (groupBy === "priority") return PRIORITY_NAMES[Number(key)] ?? String(key);
    return names.get(String(key)) ?? String(key);
  };
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const flags = toQuery(opts);
  const { sort: _s, ...query } = withDefaultState(
    opts.view ? { ...(await viewQuery(deps, opts.view)), ...flags } : flags,
    opts.state,
  );
  const groupBy: Grouping = opts.groupBy ? (opts.groupBy as Grouping) : "state";
  const counts = await deps.tracker.issues.counts({ ...query, groupBy }, deps.call);
  if (opts.json) return printJson(deps, counts);
  const name = await namer(deps, groupBy);
  const rows = [
    ...counts.groups.map((g) => ({
      name: name(g.key),
      key: g.key === null ? "" : String(g.key),
      count: g.count,
    })),
    { name: "Total", key: "", count: counts.total },
  ];
  printTable(deps, rows, [
    { header: groupBy.toUpperCase(), value: (r) => r.key || r.name, tty: (r) => r.name, flex: true },
    { header: "ISSUES", value: (r) => String(r.count) },
  ]);
}
