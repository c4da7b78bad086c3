import type { CommandSpec, OptionSpec } from "./command.js";
import { nouns } from "./commands/index.js";
import { EXIT_CODES_HELP } from "./exit-codes.js";

export const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Flags every command accepts, besides its own. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  json: {
    type: "boolean",
    value: "[FIELDS]",
    description: "Print JSON; `--json a,b` keeps only those fields of each object",
  },
  jq: { type: "string", value: "EXPR", description: "Filter the JSON with a jq expression (implies --json)" },
  url: { type: "string", value: "URL", description: "Server URL (default $TRACKER_URL, else your login)" },
  workspace: {
    type: "string",
    short: "w",
    value: "WS",
    description: "Workspace slug, name or id (default $TRACKER_WORKSPACE)",
  },
  timeout: {
    type: "string",
    value: "TIME",
    description: "Give up on a silent server after 30s (default), 500ms, 2m…; 0 never",
  },
  noInput: { type: "boolean", description: "Never prompt; a missing value is a usage error" },
  help: { type: "boolean", short: "h", description: "Show help for the command" },
};

const ENVIRONMENT_HELP = `ENVIRONMENT
  TRACKER_URL         Server URL, e.g. http://localhost:3000 (overrides your login)
  TRACKER_API_KEY     API key (trk_…) (overrides your login)
  TRACKER_WORKSPACE   Workspace to act in, for account keys that reach several
  TRACKER_TIMEOUT_MS  Time limit of each request in ms (default 30000; 0 none)
  TRACKER_FORCE_TTY   Print as on a terminal (tables, colour) even when piped
  NO_COLOR            Turn off colour on terminals
  XDG_CONFIG_HOME     Where 'tracker auth login' keeps its keys (tracker/config.json)`;

export interface LoadedCommand {
  name: string;
  spec: CommandSpec;
}

function flagName(key: string, opt: OptionSpec): string {
  const short = opt.short ? `-${opt.short}, ` : "    ";
  return `${short}--${kebab(key)}${opt.value ? ` ${opt.value}` : ""}`;
}

function flagLines(options: Record<string, OptionSpec>): string[] {
  const entries = Object.entries(options);
  const left = entries.map(([key, opt]) => flagName(key, opt));
  const width = Math.max(...left.map((l) => l.length));
  return entries.map(([, opt], i) => {
    const choices =
      opt.choices && !opt.description.includes(opt.choices[0]!) ? ` (${opt.choices.join(", ")})` : "";
    return `  ${left[i]!.padEnd(width)}  ${opt.description}${choices}`;
  });
}

export function usageLine(name: string, spec: CommandSpec): string {
  const args = spec.args
    .map((a) =>
      a.endsWith("...") ? `<${a.slice(0, -3)}>...` : a.endsWith("?") ? `[<${a.slice(0, -1)}>]` : `<${a}>`,
    )
    .join(" ");
  return `tracker ${name}${args ? ` ${args}` : ""} [flags]`;
}

export function commandHelp(command: LoadedCommand): string {
  const { spec } = command;
  const lines = [spec.summary, ""];
  if (spec.description) lines.push(spec.description, "");
  lines.push("USAGE", `  ${usageLine(command.name, spec)}`, "");
  if (Object.keys(spec.options).length) lines.push("FLAGS", ...flagLines(spec.options), "");
  lines.push("INHERITED FLAGS", ...flagLines(GLOBAL_OPTIONS), "");
  if (spec.examples?.length) lines.push("EXAMPLES", ...spec.examples.map((e) => `  $ ${e}`), "");
  lines.push("Exit codes: 'tracker --help'.", "");
  return lines.join("\n");
}

export function nounHelp(noun: string, verbs: LoadedCommand[]): string {
  const width = Math.max(...verbs.map((c) => c.name.length));
  return [
    nouns[noun] ?? noun,
    "",
    "USAGE",
    `  tracker ${noun} <command> [flags]`,
    "",
    "COMMANDS",
    ...verbs.map((c) => `  ${c.name.padEnd(width)}  ${c.spec.summary}`),
    "",
    `Run 'tracker ${noun} <command> --help' for a command's flags and examples.`,
    "",
  ].join("\n");
}

export function topLevelHelp(all: LoadedCommand[]): string {
  const width = Math.max(...all.map((c) => c.name.length));
  return [
    "Work with Tracker from the command line: issues, projects, cycles, labels, docs and more.",
    "",
    "USAGE",
    "  tracker <noun> <verb> [args] [flags]",
    "",
    "COMMANDS",
    ...all.map((c) => `  ${c.name.padEnd(width)}  ${c.spec.summary}`),
    "",
    "GLOBAL FLAGS",
    ...flagLines(GLOBAL_OPTIONS),
    "",
    "GETTING STARTED",
    "  tracker auth login                 store a server URL and API key (or set TRACKER_URL, TRACKER_API_KEY)",
    "  tracker issues list --assignee me  your issues",
    "  tracker completion bash            shell completion (also zsh, fish)",
    "",
    ENVIRONMENT_HELP,
    "",
    "OUTPUT",
    "  Data goes to stdout and messages to stderr. On a terminal lists are aligned tables; when piped they",
    "  are tab-separated rows without a header. --json prints the API's JSON; --jq filters it.",
    "",
    EXIT_CODES_HELP,
    "",
    "Run 'tracker <noun> <verb> --help' for a command's flags and examples.",
    "",
  ].join("\n");
}
