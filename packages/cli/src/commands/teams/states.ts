import { type Schemas, STATE_TYPES } from "@tracker/sdk";
import { CommandError, type Deps, defineCommand, type Opts, positiveInt, UsageError } from "../../command.js";
import { printJson, printList, say } from "../../output.js";
import { colour } from "../labels/create.js";

type State = Schemas["WorkflowState"];

export const spec = defineCommand({
  summary: "List a team's workflow states, or add, rename, recolour, move and delete them",
  description:
    "States are listed in the team's order (# from 1). --add NAME needs --type; --color and --position\n" +
    "place and paint it. --rename OLD=NEW, --color NAME=#RRGGBB, --move NAME --to-position N. --delete NAME\n" +
    "moves the state's issues to --move-to (required while it holds any). A state's type is fixed once made;\n" +
    "a team keeps at least one backlog-or-unstarted, one completed and one canceled state.",
  args: ["team"],
  options: {
    add: { type: "string", value: "NAME", description: "Add a state (with --type)" },
    type: { type: "string", value: "TYPE", choices: STATE_TYPES, description: "With --add: its type" },
    color: {
      type: "string",
      value: "#RRGGBB",
      description: "With --add: its colour; alone, NAME=#RRGGBB recolours a state",
    },
    position: { type: "string", value: "N", description: "With --add: its place, from 1" },
    rename: { type: "string", value: "OLD=NEW", description: "Rename a state" },
    move: { type: "string", value: "NAME", description: "Move a state (with --to-position)" },
    toPosition: { type: "string", value: "N", description: "With --move: its new place, from 1" },
    delete: { type: "string", value: "NAME", description: "Delete a state" },
    moveTo: { type: "string", value: "STATE", description: "With --delete: where its issues go" },
  },
  examples: [
    "tracker teams states ENG",
    "tracker teams states ENG --add QA --type started --color '#f2994a'",
    "tracker teams states ENG --rename Todo=Ready",
    "tracker teams states ENG --move QA --to-position 4",
    "tracker teams states ENG --delete 'In Review' --move-to 'In Progress'",
  ],
});

/** `A=B` split at the first `=`, both sides non-empty; else a usage error naming the flag. */
function pair(flag: string, value: string, right: string): [string, string] {
  const [left, rest] = value.split(/=(.*)/s) as [string, string | undefined];
  if (!left || !rest) throw new UsageError(`--${flag} needs NAME=${right}`);
  return [left, rest];
}

/** The state named (any case) or by id; else an error listing the team's states. */
function find(states: State[], key: string, name: string): State {
  const state = states.find((s) => s.id === name || s.name.toLowerCase() === name.toLowerCase());
  if (!state)
    throw new CommandError(`no state "${name}" in ${key}; states: ${states.map((s) => s.name).join(", ")}`);
  return state;
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  // A team key is matched as written upper-case; an id as it is.
  const key = /^[0-9a-f-]{36}$/i.test(opts.team) ? opts.team : opts.team.toUpperCase();
  const teams = deps.tracker.teams;
  const acts = [opts.add, opts.rename, opts.move, opts.delete].filter((v) => v !== undefined).length;
  const recolour = opts.color !== undefined && opts.add === undefined;
  if (acts + (recolour ? 1 : 0) > 1)
    throw new UsageError("one of --add, --rename, --color NAME=#RRGGBB, --move or --delete at a time");
  if (opts.type && opts.add === undefined) throw new UsageError("--type goes with --add");
  if (opts.position && opts.add === undefined) throw new UsageError("--position goes with --add");
  if (opts.toPosition && opts.move === undefined) throw new UsageError("--to-position goes with --move");
  if (opts.moveTo && opts.delete === undefined) throw new UsageError("--move-to goes with --delete");
  let states = await teams.states(key, deps.call);

  if (opts.add !== undefined) {
    if (!opts.type) throw new UsageError(`--add needs --type (${STATE_TYPES.join(", ")})`);
    const body: Schemas["WorkflowStateCreate"] = { name: opts.add, type: opts.type as State["type"] };
    const color = colour(opts.color);
    if (color) body.color = color;
    if (opts.position) body.position = positiveInt("position", opts.position) - 1;
    const state = await teams.createState(key, body, deps.call);
    if (deps.isTTY) say(deps, `Added ${state.name} (${state.type}) to ${key} at ${state.position + 1}`);
  } else if (opts.rename !== undefined) {
    const [from, to] = pair("rename", opts.rename, "NEW");
    const state = await teams.updateState(key, find(states, key, from).id, { name: to }, deps.call);
    if (deps.isTTY) say(deps, `Renamed ${from} to ${state.name}`);
  } else if (recolour) {
    const [name, hex] = pair("color", opts.color!, "#RRGGBB");
    const state = await teams.updateState(key, find(states, key, name).id, { color: colour(hex) }, deps.call);
    if (deps.isTTY) say(deps, `${state.name} is now ${state.color}`);
  } else if (opts.move !== undefined) {
    if (!opts.toPosition) throw new UsageError("--move needs --to-position N (from 1)");
    const position = positiveInt("to-position", opts.toPosition) - 1;
    const state = await teams.updateState(key, find(states, key, opts.move).id, { position }, deps.call);
    if (deps.isTTY) say(deps, `Moved ${state.name} to ${state.position + 1}`);
  } else if (opts.delete !== undefined) {
    const state = find(states, key, opts.delete);
    const moveTo = opts.moveTo === undefined ? undefined : find(states, key, opts.moveTo).id;
    const { moved } = await teams.deleteState(key, state.id, moveTo ? { moveTo } : {}, deps.call);
    const target = states.find((s) => s.id === moveTo)?.name;
    if (deps.isTTY)
      say(
        deps,
        `Deleted ${state.name}${moved ? `; ${moved} issue${moved === 1 ? "" : "s"} moved to ${target}` : ""}`,
      );
  }
  if (acts || recolour) states = await teams.states(key, deps.call);
  if (opts.json) return printJson(deps, states);
  await printList(
    deps,
    opts,
    states,
    [
      { header: "#", value: (s) => String(s.position + 1) },
      { header: "NAME", value: (s) => s.name },
      { header: "TYPE", value: (s) => s.type },
      { header: "COLOR", value: (s) => s.color },
      { header: "ID", value: (s) => s.id, style: (_, c) => c.gray },
    ],
    "No workflow states.",
  );
}
