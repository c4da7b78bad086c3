import { parseArgs } from "node:util";
import type { Tracker } from "@tracker/sdk";
import { expandAlias } from "./alias.js";
import {
  type CommandModule,
  type CommandSpec,
  type Connection,
  type Deps,
  type OptionSpec,
  type Output,
  UsageError,
} from "./command.js";
import { commands, hiddenCommands, nounAliases, nouns } from "./commands/index.js";
import { ConfigStore, DEFAULT_URL, normalizeUrl } from "./config.js";
import { ExitCode, reportError } from "./exit-codes.js";
import { commandHelp, GLOBAL_OPTIONS, kebab, type LoadedCommand, nounHelp, topLevelHelp } from "./help.js";
import { inquirerPrompter, noPrompter, type Prompter } from "./prompt.js";

export interface CliIo {
  stdout: Output;
  stderr: Output;
  stdin?: NodeJS.ReadableStream;
  /** stdout is a terminal. */
  isTTY: boolean;
  stdinTTY?: boolean;
  stderrTTY?: boolean;
  /** Terminal width. */
  columns?: number;
  env: Record<string, string | undefined>;
  /** Aborted by Ctrl-C; passed to every SDK call. */
  signal?: AbortSignal;
  /** Builds the API client; tests pass one that answers from canned responses. */
  makeTracker?: (connection: Connection) => Tracker;
  prompter?: Prompter;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** `30s`, `500ms`, `2m`, or a bare number of seconds; `0` turns the limit off. */
export function parseDuration(flag: string, value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  if (!match)
    throw new UsageError(`invalid value "${value}" for --${flag}; expected a time like 30s, 500ms or 2m`);
  const n = Number(match[1]);
  const unit = match[2] ?? "s";
  return Math.round(unit === "ms" ? n : unit === "m" ? n * 60_000 : n * 1000);
}

function timeoutFrom(flag: string | undefined, env: Record<string, string | undefined>): number {
  if (flag !== undefined) return parseDuration("timeout", flag);
  const fromEnv = env.TRACKER_TIMEOUT_MS;
  if (fromEnv !== undefined && fromEnv !== "") {
    if (!/^\d+$/.test(fromEnv))
      throw new UsageError(`TRACKER_TIMEOUT_MS must be a number of milliseconds, got "${fromEnv}"`);
    return Number(fromEnv);
  }
  return DEFAULT_TIMEOUT_MS;
}

const FIELD_LIST = /^[A-Za-z_$][\w$]*(,[A-Za-z_$][\w$]*)*$/;

interface GlobalFlags {
  json?: boolean;
  fields?: string[];
  [key: string]: string | boolean | string[] | undefined;
}

/** Global flags given before the noun (`tracker --workspace acme issues list`). */
function leadingGlobals(argv: string[]): { globals: GlobalFlags; rest: string[] } {
  const globals: GlobalFlags = {};
  let i = 0;
  for (; i < argv.length && argv[i]!.startsWith("-"); i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg];
    if (flag === "--version") {
      globals.version = true;
      continue;
    }
    if (flag === "--json") {
      globals.json = true;
      if (inline) globals.fields = inline.split(",");
      continue;
    }
    const entry = Object.entries(GLOBAL_OPTIONS).find(
      ([key, opt]) => flag === `--${kebab(key)}` || (opt.short !== undefined && flag === `-${opt.short}`),
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

/**
 * The words with a leading alias (`tracker alias set`) replaced by what it stands for. Commands and nouns
 * always win, so an alias can never shadow one.
 */
function withAlias(words: string[], env: Record<string, string | undefined>): string[] {
  const [first, ...args] = words;
  if (!first || first.startsWith("-") || first in commands || first in hiddenCommands) return words;
  if (first in nouns || first in nounAliases) return words;
  const expansion = new ConfigStore(env).read().aliases?.[first];
  return expansion === undefined ? words : expandAlias(expansion, args);
}

/** Levenshtein distance, for "did you mean" on a mistyped noun or verb. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

function suggest(word: string, candidates: string[]): string {
  const best = candidates
    .map((c) => ({ c, d: distance(word, c) }))
    .filter(({ c, d }) => d <= Math.max(1, Math.floor(c.length / 3)))
    .sort((x, y) => x.d - y.d)[0];
  return best ? `; did you mean "${best.c}"?` : "";
}

/** Resolves `tracker <noun> <verb>` (or a one-word command) to a command name. */
function findCommand(words: string[]): { name?: string; consumed: number; noun?: string } {
  const [first, verb] = words;
  if (!first) return { consumed: 0 };
  if (first in commands || first in hiddenCommands) return { name: first, consumed: 1 };
  const noun = nounAliases[first] ?? first;
  if (!(noun in nouns))
    throw new UsageError(`unknown command "${first}"${suggest(first, Object.keys(nouns))}`);
  if (!verb || verb.startsWith("-")) return { consumed: 1, noun };
  const name = `${noun} ${verb}`;
  if (!(name in commands)) {
    const verbs = Object.keys(commands)
      .filter((c) => c.startsWith(`${noun} `))
      .map((c) => c.slice(noun.length + 1));
    const hint = suggest(verb, verbs) || `; run 'tracker ${noun} --help' for its commands`;
    throw new UsageError(`unknown command "${noun} ${verb}"${hint}`);
  }
  return { name, consumed: 2, noun };
}

export async function loadCommand(name: string): Promise<LoadedCommand & CommandModule> {
  const loader = commands[name] ?? hiddenCommands[name];
  if (!loader) throw new UsageError(`unknown command "${name}"`);
  const mod = await loader();
  return { name, spec: mod.spec, run: mod.run };
}

export async function loadAll(filter: (name: string) => boolean = () => true) {
  return Promise.all(Object.keys(commands).filter(filter).map(loadCommand));
}

interface Positional {
  name: string;
  optional: boolean;
  variadic: boolean;
}

function positionals(spec: CommandSpec): Positional[] {
  for (const a of spec.args) {
    const name = a.replace(/(\.\.\.|\?)$/, "");
    if (name in GLOBAL_OPTIONS || name in spec.options)
      throw new Error(`internal error: argument <${name}> shadows a flag`);
  }
  return spec.args.map((a) => ({
    name: a.replace(/(\.\.\.|\?)$/, ""),
    optional: a.endsWith("?"),
    variadic: a.endsWith("..."),
  }));
}

/**
 * Takes `--json`, `--json=FIELDS` and `--json FIELDS` out of the arguments. The bare form takes the next
 * word as its field list only when it looks like one and `keepNext` is false (the caller retries with
 * `keepNext` when that word turns out to be a missing positional argument).
 */
function extractJson(args: string[], keepNext: boolean) {
  const out: string[] = [];
  let json = false;
  let fields: string[] | undefined;
  let tookNext = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      out.push(...args.slice(i));
      break;
    }
    if (arg === "--json") {
      json = true;
      const next = args[i + 1];
      if (!keepNext && next !== undefined && FIELD_LIST.test(next)) {
        fields = next.split(",");
        tookNext = true;
        i++;
      }
    } else if (arg.startsWith("--json=")) {
      json = true;
      fields = arg.slice("--json=".length).split(",").filter(Boolean);
    } else out.push(arg);
  }
  return { args: out, json, fields, tookNext };
}

/**
 * `--sort -priority` means the value `-priority` (a reversed sort), not a flag: a string flag's next word
 * that starts with a dash but names no flag is attached as `--sort=-priority` before parsing.
 */
function attachDashValues(args: string[], specs: Record<string, OptionSpec>): string[] {
  const flags = new Set(
    Object.entries(specs).flatMap(([key, opt]) => [
      `--${kebab(key)}`,
      ...(opt.short ? [`-${opt.short}`] : []),
    ]),
  );
  const takesValue = new Set(
    Object.entries(specs)
      .filter(([, opt]) => opt.type === "string")
      .flatMap(([key, opt]) => [`--${kebab(key)}`, ...(opt.short ? [`-${opt.short}`] : [])]),
  );
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (arg === "--") {
      out.push(...args.slice(i));
      break;
    }
    if (takesValue.has(arg) && next?.startsWith("-") && next.length > 1 && !flags.has(next.split("=")[0]!)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Parses a command's flags and positionals into its `Opts`, refusing anything it does not declare. */
function parseCommandArgs(command: LoadedCommand, rawArgs: string[]): Record<string, unknown> {
  const attempt = (keepNext: boolean) => {
    const extracted = extractJson(rawArgs, keepNext);
    const specs: Record<string, OptionSpec> = { ...command.spec.options, ...GLOBAL_OPTIONS };
    const options = Object.fromEntries(
      Object.entries(specs)
        .filter(([key]) => key !== "json")
        .map(([key, opt]) => [
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
      parsed = parseArgs({
        args: attachDashValues(extracted.args, specs),
        options,
        allowPositionals: true,
        strict: true,
      });
    } catch (err) {
      throw new UsageError(
        err instanceof Error ? err.message.replace(/\. To specify a positional.*$/s, "") : String(err),
      );
    }
    return { parsed, extracted, specs };
  };

  const params = positionals(command.spec);
  const needed = params.filter((p) => !p.optional).length;
  let { parsed, extracted, specs } = attempt(false);
  if (extracted.tookNext && parsed.positionals.length < needed)
    ({ parsed, extracted, specs } = attempt(true));

  const opts: Record<string, unknown> = {};
  for (const key of Object.keys(specs)) {
    const value = parsed.values[kebab(key)];
    if (value !== undefined) opts[key] = value;
  }
  if (extracted.json) opts.json = true;
  if (extracted.fields) opts.jsonFields = extracted.fields;
  if (opts.help) return opts;

  for (const [key, opt] of Object.entries(command.spec.options)) {
    const value = opts[key];
    if (!opt.choices || value === undefined || typeof value === "boolean") continue;
    const values = (Array.isArray(value) ? value : [value]).flatMap((v) => (opt.list ? v.split(",") : [v]));
    for (const v of values.map((x) => x.trim()).filter(Boolean)) {
      if (!opt.choices.includes(v)) {
        throw new UsageError(
          `invalid value "${v}" for --${kebab(key)}; expected one of: ${opt.choices.join(", ")}`,
        );
      }
    }
  }

  const given = parsed.positionals;
  let i = 0;
  for (const p of params) {
    if (p.variadic) {
      if (given.length - i < 1 && !p.optional) throw new UsageError(`missing <${p.name}>`);
      opts[p.name] = given.slice(i);
      i = given.length;
    } else if (i < given.length) opts[p.name] = given[i++];
    else if (!p.optional) {
      const missing = params.slice(params.indexOf(p)).filter((q) => !q.optional);
      throw new UsageError(`missing ${missing.map((q) => `<${q.name}>`).join(" ")}`);
    }
  }
  if (i < given.length) throw new UsageError(`unexpected argument "${given[i]}"`);
  return opts;
}

function readAll(stream: NodeJS.ReadableStream | undefined): Promise<string> {
  if (!stream) return Promise.resolve("");
  return new Promise((resolve, reject) => {
    let text = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      text += chunk;
    });
    stream.on("end", () => resolve(text));
    stream.on("error", reject);
  });
}

/**
 * Runs `tracker <argv>` and answers the exit code. The bin passes the real process; tests pass buffers and
 * a Tracker built on a canned `fetch`.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const write = (message: string) => io.stderr.write(`${message}\n`);
  let commandName: string | undefined;
  let url: string | undefined;
  try {
    const { globals, rest } = leadingGlobals(argv);
    if (globals.version && rest.length === 0) {
      const { version } = await import("./version.js");
      io.stdout.write(`tracker version ${version()}\n`);
      return ExitCode.ok;
    }
    const typed = rest[0] === "help" ? rest.slice(1) : rest;
    const words = withAlias(typed, io.env);
    const wantsHelp = rest[0] === "help" || globals.help === true;
    const { name, consumed, noun } = findCommand(words);
    if (!name) {
      if (noun) {
        const help = nounHelp(noun, await loadAll((n) => n.split(" ")[0] === noun));
        if (wantsHelp || words.slice(consumed).some((w) => w === "--help" || w === "-h")) {
          io.stdout.write(help);
          return ExitCode.ok;
        }
        io.stderr.write(help);
        return ExitCode.usage;
      }
      io.stdout.write(topLevelHelp(await loadAll()));
      return ExitCode.ok;
    }
    commandName = name;
    const command = await loadCommand(name);
    // The completion scripts pass the line's words as they are, flags included: they are data here.
    const opts =
      name === "__complete"
        ? { words: words.slice(consumed) }
        : parseCommandArgs(command, words.slice(consumed));
    if (wantsHelp || opts.help) {
      io.stdout.write(commandHelp(command));
      return ExitCode.ok;
    }

    const pick = (key: string) => (opts[key] as string | undefined) ?? (globals[key] as string | undefined);
    const jq = pick("jq");
    const fields = (opts.jsonFields as string[] | undefined) ?? globals.fields;
    if (globals.json || jq !== undefined || fields) opts.json = true;
    delete opts.jsonFields;
    if (jq !== undefined) {
      const { checkJq } = await import("./jq.js");
      await checkJq(jq);
    }

    const config = new ConfigStore(io.env);
    const stored = config.read();
    const flagUrl = pick("url");
    // An empty variable is an unset one (`TRACKER_URL= tracker …`), as TRACKER_API_KEY already is.
    const envUrl = io.env.TRACKER_URL || undefined;
    url = normalizeUrl(flagUrl ?? envUrl ?? stored.default ?? DEFAULT_URL);
    let server = stored.servers[url];
    const envKey = io.env.TRACKER_API_KEY || undefined;
    if (!envKey && server?.oauth && server.oauth.expiresAt < Date.now() + 60_000) {
      // A login with --web: its access token is renewed (and stored) before it runs out.
      const { refreshStored } = await import("./commands/auth/web-login.js");
      const renewed = await refreshStored(server.oauth);
      if (renewed) {
        server = { ...server, apiKey: renewed.accessToken, oauth: renewed.oauth };
        config.write({ ...stored, servers: { ...stored.servers, [url]: server } });
      }
    }
    const connection: Connection = {
      baseUrl: url,
      urlSource: flagUrl ? "flag" : envUrl ? "env" : stored.default ? "config" : "default",
      apiKey: envKey ?? server?.apiKey,
      keySource: envKey ? "env" : "config",
      workspace: pick("workspace") ?? (io.env.TRACKER_WORKSPACE || server?.workspace),
      timeoutMs: timeoutFrom(pick("timeout"), io.env),
    };
    const makeTracker = async (c: Connection): Promise<Tracker> => {
      if (io.makeTracker) return io.makeTracker(c);
      const [{ createTracker }, { nodeFetch }] = await Promise.all([
        import("@tracker/sdk"),
        import("./transport.js"),
      ]);
      return createTracker({
        fetch: nodeFetch,
        baseUrl: c.baseUrl,
        ...(c.apiKey ? { apiKey: c.apiKey } : {}),
        ...(c.workspace ? { workspace: c.workspace } : {}),
        timeoutMs: c.timeoutMs,
      });
    };

    let tracker: Tracker;
    if (command.spec.api === false) {
      tracker = new Proxy({} as Tracker, {
        get() {
          throw new Error(`internal error: ${name} declared that it does not call the API`);
        },
      });
    } else {
      if (!connection.apiKey) {
        write(
          `not authenticated: no API key for ${url}.\n` +
            "Run 'tracker auth login', or set TRACKER_API_KEY to an API key (trk_…).",
        );
        return ExitCode.unauthenticated;
      }
      tracker = await makeTracker(connection);
    }

    const stdinTTY = io.stdinTTY ?? false;
    const noInput = opts.noInput === true || globals.noInput === true;
    const canPrompt = stdinTTY && io.isTTY && !noInput;
    const deps: Deps = {
      tracker,
      call: io.signal ? { signal: io.signal } : {},
      stdout: io.stdout,
      stderr: io.stderr,
      isTTY: io.isTTY,
      stderrTTY: io.stderrTTY ?? false,
      canPrompt,
      columns: io.columns ?? 80,
      env: io.env,
      json: { ...(fields ? { fields } : {}), ...(jq !== undefined ? { jq } : {}) },
      readStdin: () => readAll(io.stdin),
      stdinBytes: () => (io.stdin ?? process.stdin) as AsyncIterable<Uint8Array>,
      prompt: canPrompt
        ? (io.prompter ??
          inquirerPrompter({
            input: io.stdin ?? process.stdin,
            output: (io.stderr as NodeJS.WritableStream | undefined) ?? process.stderr,
          }))
        : noPrompter,
      config,
      connection,
      makeTracker,
    };
    await command.run(opts as never, deps);
    // Ctrl-C ends a command that runs until stopped (events tail) quietly; it was still interrupted.
    return io.signal?.aborted ? ExitCode.interrupted : ExitCode.ok;
  } catch (err) {
    return reportError(err, {
      ...(commandName ? { command: commandName } : {}),
      ...(url ? { url } : {}),
      interrupted: io.signal?.aborted === true,
      write,
    });
  }
}
