import type { Command, OptionSpec } from "./command.js";
import { commands, nouns } from "./commands/index.js";
import { EXIT_CODES_HELP } from "./exit-codes.js";

export const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Flags every command accepts, besides its own. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  json: { type: "boolean", description: "Print the JSON payload instead of text" },
  url: { type: "string", value: "URL", description: "Server URL (default $TRACKER_URL)" },
  workspace: {
    type: "string",
    short: "w",
    value: "WS",
    description: "Workspace slug, name or id (default $TRACKER_WORKSPACE)",
  },
  help: { type: "boolean", short: "h", description: "Show help for the command" },
};

const ENVIRONMENT_HELP = `ENVIRONMENT
  TRACKER_URL        Server URL, e.g. http://localhost:3000
  TRACKER_API_KEY    API key (trk_…); required
  TRACKER_WORKSPACE  Workspace to act in, for account keys that reach several
  NO_COLOR           Turn off colour on terminals`;

function flagLines(options: Record<string, OptionSpec>): string[] {
  const left = Object.entries(options).map(([key, opt]) => {
    const short = opt.short ? `-${opt.short}, ` : "    ";
    return `${short}--${kebab(key)}${opt.value ? ` ${opt.value}` : ""}`;
  });
  const width = Math.max(...left.map((l) => l.length));
  return Object.values(options).map((opt, i) => `  ${left[i]!.padEnd(width)}  ${opt.description}`);
}

export function commandHelp(command: Command): string {
  const { spec } = command;
  const args = spec.args.map((a) => `<${a}>`).join(" ");
  const lines = [spec.summary, ""];
  if (spec.description) lines.push(spec.description, "");
  lines.push("USAGE", `  tracker ${spec.name}${args ? ` ${args}` : ""} [flags]`, "");
  if (Object.keys(spec.options).length) lines.push("FLAGS", ...flagLines(spec.options), "");
  lines.push("INHERITED FLAGS", ...flagLines(GLOBAL_OPTIONS), "");
  if (spec.examples?.length) lines.push("EXAMPLES", ...spec.examples.map((e) => `  $ ${e}`), "");
  return lines.join("\n");
}

export function nounHelp(noun: string): string {
  const verbs = commands.filter((c) => c.spec.name.split(" ")[0] === noun);
  const width = Math.max(...verbs.map((c) => c.spec.name.length));
  return [
    nouns[noun] ?? noun,
    "",
    "USAGE",
    `  tracker ${noun} <command> [flags]`,
    "",
    "COMMANDS",
    ...verbs.map((c) => `  ${c.spec.name.padEnd(width)}  ${c.spec.summary}`),
    "",
    `Run 'tracker ${noun} <command> --help' for a command's flags.`,
    "",
  ].join("\n");
}

export function topLevelHelp(): string {
  const width = Math.max(...commands.map((c) => c.spec.name.length));
  return [
    "Work with Tracker issues, teams and workspaces from the command line.",
    "",
    "USAGE",
    "  tracker <noun> <verb> [args] [flags]",
    "",
    "COMMANDS",
    ...commands.map((c) => `  ${c.spec.name.padEnd(width)}  ${c.spec.summary}`),
    "",
    "GLOBAL FLAGS",
    ...flagLines(GLOBAL_OPTIONS),
    "",
    ENVIRONMENT_HELP,
    "",
    "OUTPUT",
    "  Data goes to stdout and messages to stderr. On a terminal lists are aligned tables; when piped",
    "  they are tab-separated rows without a header. --json prints the API's JSON payload.",
    "",
    EXIT_CODES_HELP,
    "",
    "Run 'tracker <noun> <verb> --help' for a command's flags.",
    "",
  ].join("\n");
}
