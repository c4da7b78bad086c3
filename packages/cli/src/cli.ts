import { parseArgs } from "node:util";
import { createTracker, type Tracker } from "@tracker/sdk";
import { type Command, type Deps, type OptionSpec, type Output, UsageError } from "./command.js";
import { commands, nouns } from "./commands/index.js";
import { ExitCode, reportError } from "./exit-codes.js";
import { commandHelp, GLOBAL_OPTIONS, kebab, nounHelp, topLevelHelp } from "./help.js";

export interface TrackerConfig {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  workspace: string | undefined;
}

export interface CliIo {
  stdout: Output;
  stderr: Output;
  isTTY: boolean;
  env: Record<string, string | undefined>;
  /** Builds the API client; tests pass one that answers from canned responses. */
  makeTracker?: (config: TrackerConfig) => Tracker;
}

const defaultMakeTracker = (config: TrackerConfig): Tracker =>
  createTracker({
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.workspace ? { workspace: config.workspace } : {}),
  });

/** Global flags given before the noun (`tracker --workspace acme issues list`). */
function leadingGlobals(argv: string[]): { globals: Record<string, string | boolean>; rest: string[] } {
  const globals: Record<string, string | boolean> = {};
  let i = 0;
  for (; i < argv.length && argv[i]!.startsWith("-"); i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg];
    const entry = Object.entries(GLOBAL_OPTIONS).find(
      ([key, opt]) => flag === `--${key}` || flag === `-${opt.short}`,
    );
    if (!entry) throw new UsageError(`unknown flag ${flag}`);
    const [key, opt] = entry;
    if (opt.type === "boolean") globals[key] = true;
    else {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`option ${flag} needs a value`);
      globals[key] = value;
    }
  }
  return { globals, rest: argv.slice(i) };
}

function findCommand(words: string[]): { command?: Command; consumed: number; noun?: string } {
  const [noun, verb] = words;
  if (!noun) return { consumed: 0 };
  const single = commands.find((c) => c.spec.name === noun);
  if (single) return { command: single, consumed: 1, noun };
  if (!(noun in nouns)) throw new UsageError(`unknown command "${noun}"`);
  if (!verb || verb.startsWith("-")) return { consumed: 1, noun };
  const command = commands.find((c) => c.spec.name === `${noun} ${verb}`);
  if (!command)
    throw new UsageError(`unknown command "${noun} ${verb}"; run 'tracker ${noun} --help' for its commands`);
  return { command, consumed: 2, noun };
}

/** Parses a command's flags and positionals into its `Opts`, refusing anything it does not declare. */
function parseCommandArgs(command: Command, args: string[]): Record<string, unknown> {
  const specs: Record<string, OptionSpec> = { ...command.spec.options, ...GLOBAL_OPTIONS };
  const options = Object.fromEntries(
    Object.entries(specs).map(([key, opt]) => [
      kebab(key),
      {
        type: opt.type,
        ...(opt.short ? { short: opt.short } : {}),
        ...(opt.multiple ? { multiple: true } : {}),
      },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(
      err instanceof Error ? err.message.replace(/\. To specify a positional.*$/s, "") : String(err),
    );
  }
  const opts: Record<string, unknown> = {};
  for (const key of Object.keys(specs)) {
    const value = parsed.values[kebab(key)];
    if (value !== undefined) opts[key] = value;
  }
  if (opts.help) return opts;
  const names = command.spec.args;
  if (parsed.positionals.length < names.length) {
    throw new UsageError(
      `missing ${names
        .slice(parsed.positionals.length)
        .map((n) => `<${n}>`)
        .join(" ")}`,
    );
  }
  if (parsed.positionals.length > names.length) {
    throw new UsageError(`unexpected argument "${parsed.positionals[names.length]}"`);
  }
  names.forEach((name, i) => {
    opts[name] = parsed.positionals[i];
  });
  return opts;
}

/**
 * Runs `tracker <argv>` and answers the exit code. The bin passes the real process; tests pass buffers and
 * a Tracker built on a canned `fetch`.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const write = (message: string) => io.stderr.write(`${message}\n`);
  let commandName: string | undefined;
  try {
    const { globals, rest } = leadingGlobals(argv);
    const words = rest[0] === "help" ? rest.slice(1) : rest;
    const wantsHelp = rest[0] === "help" || globals.help === true;
    const { command, consumed, noun } = findCommand(words);
    if (!command) {
      if (noun) {
        const help = nounHelp(noun);
        if (wantsHelp || words.slice(consumed).some((w) => w === "--help" || w === "-h")) {
          io.stdout.write(help);
          return ExitCode.ok;
        }
        io.stderr.write(help);
        return ExitCode.usage;
      }
      io.stdout.write(topLevelHelp());
      return ExitCode.ok;
    }
    commandName = command.spec.name;
    const opts = parseCommandArgs(command, words.slice(consumed));
    if (wantsHelp || opts.help) {
      io.stdout.write(commandHelp(command));
      return ExitCode.ok;
    }

    const url = (opts.url as string | undefined) ?? (globals.url as string | undefined) ?? io.env.TRACKER_URL;
    const workspace =
      (opts.workspace as string | undefined) ??
      (globals.workspace as string | undefined) ??
      io.env.TRACKER_WORKSPACE;
    const apiKey = io.env.TRACKER_API_KEY;
    if (!apiKey) {
      write(
        "not authenticated: TRACKER_API_KEY is not set.\nSet it to an API key (trk_…); 'npm run setup' on the server prints one.",
      );
      return ExitCode.unauthenticated;
    }
    const tracker = (io.makeTracker ?? defaultMakeTracker)({ baseUrl: url, apiKey, workspace });
    if (globals.json) opts.json = true;
    const deps: Deps = { tracker, stdout: io.stdout, stderr: io.stderr, isTTY: io.isTTY, env: io.env };
    await command.run(opts as Parameters<Command["run"]>[0], deps);
    return ExitCode.ok;
  } catch (err) {
    return reportError(err, { ...(commandName ? { command: commandName } : {}), write });
  }
}
