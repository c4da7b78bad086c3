import type { CommandSpec, Deps, OptionSpec } from "../../command.js";
import { defineCommand, type Opts } from "../../command.js";

export const spec = defineCommand({
  summary: "Values for shell completion (used by the completion scripts)",
  description:
    "Given the words typed after `tracker`, the last one being completed, prints one candidate a line as\n" +
    "`value<TAB>description`.",
  args: ["words..."],
  options: {},
  // It asks the server itself, with a short time limit, and answers nothing when it cannot.
  api: false,
  examples: ["tracker __complete issues list --team ''"],
});

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

type ValueKind = "teams" | "labels" | "users" | "states" | "projects" | "workspaces" | "shells";

// Flags whose values the server knows, by name, so every command's `--label` completes alike.
const KIND_BY_FLAG: Record<string, ValueKind> = {
  team: "teams",
  label: "labels",
  addLabel: "labels",
  removeLabel: "labels",
  assignee: "users",
  lead: "users",
  state: "states",
  moveTo: "states",
  project: "projects",
  workspace: "workspaces",
};

interface Candidate {
  value: string;
  description: string;
}

function flagEntries(options: Record<string, OptionSpec>): [string, string, OptionSpec][] {
  return Object.entries(options).flatMap(([key, opt]): [string, string, OptionSpec][] => [
    [`--${kebab(key)}`, key, opt],
    ...(opt.short ? ([[`-${opt.short}`, key, opt]] as [string, string, OptionSpec][]) : []),
  ]);
}

/** The server's values of a kind; completion must never hang a shell, so it gets two seconds. */
async function serverValues(deps: Deps, kind: ValueKind, words: string[]): Promise<Candidate[]> {
  if (kind === "shells")
    return ["bash", "zsh", "fish"].map((value) => ({ value, description: `${value} completion script` }));
  const tracker = await deps.makeTracker({ ...deps.connection, timeoutMs: 2000 });
  // Two seconds in all, retries included.
  const call = { signal: AbortSignal.timeout(2000) };
  switch (kind) {
    case "teams":
      return (await tracker.teams.list(call)).map((t) => ({ value: t.key, description: t.name }));
    case "labels":
      return (await tracker.labels.list({}, call)).map((l) => ({ value: l.name, description: "label" }));
    case "users":
      return [
        { value: "me", description: "you" },
        ...(await tracker.users.list(call)).map((u) => ({ value: u.email, description: u.name })),
      ];
    case "projects":
      return (await tracker.projects.list({ limit: 200 }, call)).items.map((p) => ({
        value: p.name,
        description: p.status,
      }));
    case "workspaces":
      return (await tracker.workspaces.list(call)).map((w) => ({ value: w.slug, description: w.name }));
    case "states": {
      // The states of the team named on the line, else of every team of the caller.
      const at = words.findIndex((w) => w === "--team" || w === "-t");
      const key = at >= 0 ? words[at + 1]?.toUpperCase() : undefined;
      const teams = (await tracker.teams.list(call)).filter((t) => !key || t.key === key);
      const seen = new Map<string, string>();
      for (const team of teams) for (const s of team.states) if (!seen.has(s.name)) seen.set(s.name, s.type);
      return [...seen].map(([value, type]) => ({ value, description: type }));
    }
  }
}

/**
 * What to offer after `words` (the last is the word being completed): nouns, a noun's verbs (its
 * singular too), a command's flags when a dash is typed, a flag's values (its choices, or what the
 * server knows), and nothing where free text or a path goes. Global flags anywhere are skipped.
 */
export async function candidates(words: string[], deps: Deps): Promise<Candidate[]> {
  const [{ commands, hiddenCommands, nounAliases, nouns }, { loadCommand }, { GLOBAL_OPTIONS }] =
    await Promise.all([import("../index.js"), import("../../cli.js"), import("../../help.js")]);
  const current = words.at(-1) ?? "";
  const before = words.slice(0, -1);
  const globals = flagEntries(GLOBAL_OPTIONS);

  // The command the line names so far, and the flag (if any) whose value is being typed.
  const positional: string[] = [];
  let pendingFlag: [string, OptionSpec] | undefined;
  let command: { name: string; spec: CommandSpec } | undefined;
  const specFlags = () => [...flagEntries(command?.spec.options ?? {}), ...globals];
  for (const word of before) {
    if (pendingFlag) {
      pendingFlag = undefined;
      continue;
    }
    if (word.startsWith("-") && word !== "-") {
      const entry = specFlags().find(([flag]) => flag === word.split("=")[0]);
      if (entry && entry[2].type === "string" && !word.includes("=")) pendingFlag = [entry[1], entry[2]];
      continue;
    }
    positional.push(word);
    if (!command) {
      const [noun, verb] = positional;
      const name =
        noun && (noun in commands || noun in hiddenCommands)
          ? noun
          : noun && verb
            ? `${nounAliases[noun] ?? noun} ${verb}`
            : undefined;
      if (name && name in commands) command = await loadCommand(name);
    }
  }

  const filter = (list: Candidate[]) => list.filter((c) => c.value.startsWith(current));
  const valuesOf = async (key: string, opt: OptionSpec, prefix = ""): Promise<Candidate[]> => {
    const kind = (opt.complete ?? KIND_BY_FLAG[key]) as ValueKind | undefined;
    const list = opt.choices
      ? opt.choices.map((value) => ({ value, description: "" }))
      : kind
        ? await serverValues(deps, kind, words).catch(() => [])
        : [];
    return list.map((c) => ({ ...c, value: prefix + c.value }));
  };

  if (pendingFlag) return filter(await valuesOf(pendingFlag[0], pendingFlag[1]));
  if (current.startsWith("-")) {
    const eq = current.indexOf("=");
    if (eq > 0) {
      const entry = specFlags().find(([flag]) => flag === current.slice(0, eq));
      return entry ? filter(await valuesOf(entry[1], entry[2], current.slice(0, eq + 1))) : [];
    }
    const seen = new Set<string>();
    return filter(
      specFlags()
        .filter(([flag]) => flag.startsWith("--") && !seen.has(flag) && seen.add(flag))
        .map(([flag, , opt]) => ({ value: flag, description: opt.description })),
    );
  }
  if (command) {
    if (command.name === "completion" && positional.length === 1)
      return filter(await serverValues(deps, "shells", []));
    return [];
  }
  if (positional.length === 0) {
    const oneWord = Object.keys(commands).filter((c) => !c.includes(" "));
    return filter([
      ...Object.keys(nouns).map((value) => ({ value, description: nouns[value] ?? "" })),
      ...oneWord.filter((c) => !(c in nouns)).map((value) => ({ value, description: "" })),
    ]);
  }
  const noun = nounAliases[positional[0]!] ?? positional[0]!;
  if (positional.length === 1 && noun in nouns) {
    const verbs = Object.keys(commands).filter((c) => c.startsWith(`${noun} `));
    const loaded = await Promise.all(verbs.map((name) => loadCommand(name)));
    return filter(loaded.map((c) => ({ value: c.name.slice(noun.length + 1), description: c.spec.summary })));
  }
  return [];
}

/** Prints `value<TAB>description` lines; a failed lookup prints nothing rather than an error in the shell. */
export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const words = opts.words.length ? opts.words : [""];
  for (const c of await candidates(words, deps))
    deps.stdout.write(`${c.value}\t${c.description.split("\n")[0]}\n`);
}
