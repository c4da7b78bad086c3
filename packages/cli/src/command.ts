import type { CallOptions, Tracker } from "@tracker/sdk";
import type { ConfigStore } from "./config.js";
import type { Prompter } from "./prompt.js";

/** Where a command writes: `process.stdout` in the shell, a string buffer in tests. */
export interface Output {
  write(chunk: string): unknown;
}

/** What `--json` asked for: every field, or the listed ones, then optionally a jq filter. */
export interface JsonRequest {
  /** `--json a,b`: only these top-level fields of each object. */
  fields?: string[];
  /** `--jq EXPR`: filter the JSON with jq and print its results. */
  jq?: string;
}

/** The server and key a command talks to, as resolved from flags, environment and the config file. */
export interface Connection {
  baseUrl: string;
  /** Where the URL came from: `--url`, TRACKER_URL, the login's default, or the built-in default. */
  urlSource?: "flag" | "env" | "config" | "default";
  apiKey: string | undefined;
  /** Where the key came from: TRACKER_API_KEY or the stored login. */
  keySource?: "env" | "config";
  workspace: string | undefined;
  timeoutMs: number;
}

/** Everything a command needs from the outside world, passed in so tests can call `run` directly. */
export interface Deps {
  tracker: Tracker;
  /** The last argument of every SDK call: it carries Ctrl-C's abort signal. */
  call: CallOptions;
  stdout: Output;
  stderr: Output;
  /** True when stdout is a terminal: aligned tables and colour instead of tab-separated text. */
  isTTY: boolean;
  /** True when stderr is a terminal: progress lines for long work. */
  stderrTTY: boolean;
  /** True when a missing value may be asked for: stdin and stdout are terminals and --no-input is absent. */
  canPrompt: boolean;
  /** Terminal width for tables. */
  columns: number;
  env: Record<string, string | undefined>;
  json: JsonRequest;
  /** The whole of standard input, for `--with-token`, `--body-file -` and friends. */
  readStdin(): Promise<string>;
  /** Standard input as bytes, as they arrive (`issues attach ... -`): never read whole into memory. */
  stdinBytes(): AsyncIterable<Uint8Array>;
  prompt: Prompter;
  config: ConfigStore;
  connection: Connection;
  /** Builds a client for another server or key (auth login checks a key before storing it). */
  makeTracker(connection: Connection): Promise<Tracker>;
}

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** Repeatable (`--label a --label b`); the value is a list. */
  multiple?: boolean;
  description: string;
  /** Placeholder shown in help, e.g. `KEY`. */
  value?: string;
  /** The values allowed; checked before anything is sent, listed in help and completion. */
  choices?: readonly string[];
  /** With `choices`: the value is a comma-separated list, each item checked. */
  list?: boolean;
  /** Values completion may fetch from the server. */
  complete?: "teams";
}

export type OptionSpecs = Record<string, OptionSpec>;

type ValueOf<S extends OptionSpec> = S["type"] extends "boolean"
  ? boolean
  : S["multiple"] extends true
    ? string[]
    : string;

/** Positional arguments: `id` (required), `id?` (optional), `ids...` (one or more). */
type ArgKey<A extends string> = A extends `${infer N}...` ? N : A extends `${infer N}?` ? N : A;
type ArgValue<A extends string> = A extends `${string}...`
  ? string[]
  : A extends `${string}?`
    ? string | undefined
    : string;
type ArgsOf<As extends readonly string[]> = { [A in As[number] as ArgKey<A>]: ArgValue<A> };

/**
 * A command's declaration: help text, positional arguments and flags. Flag keys are camelCase and spelled
 * kebab-case on the command line (`stateType` is `--state-type`). Its name is its key in
 * `commands/index.ts`, which loads it only when it runs.
 */
export interface CommandSpec<
  O extends OptionSpecs = OptionSpecs,
  A extends readonly string[] = readonly string[],
> {
  summary: string;
  description?: string;
  args: A;
  options: O;
  examples?: string[];
  /** False for commands that never call the API (auth, completion, server): no key is needed. */
  api?: boolean;
}

/** Flags every command accepts. */
export interface CommonOptions {
  /** Print JSON instead of text (`--json`, `--json fields` or `--jq`). */
  json?: boolean;
}

/** The parsed input of a command: its flags, its positional arguments by name, and the common flags. */
export type Opts<C extends CommandSpec> = { [K in keyof C["options"]]?: ValueOf<C["options"][K]> } & ArgsOf<
  C["args"]
> &
  CommonOptions;

export interface Command<C extends CommandSpec = CommandSpec> {
  spec: C;
  run(opts: Opts<C>, deps: Deps): Promise<void>;
}

/** A command file as loaded: its spec, and a `run` whose options type only the file itself knows. */
export interface CommandModule {
  spec: CommandSpec;
  run(opts: never, deps: Deps): Promise<void>;
}

/** Declares a command's spec with its literal types kept, so `Opts<typeof spec>` knows every flag. */
export function defineCommand<const O extends OptionSpecs, const A extends readonly string[]>(
  spec: CommandSpec<O, A>,
): CommandSpec<O, A> {
  return spec;
}

/** The work could not be done, for a reason the message says in full (exit code 1). */
export class CommandError extends Error {
  override name = "CommandError";
  constructor(
    message: string,
    /** 3 when the server cannot be reached, 4 when not authenticated; otherwise 1. */
    readonly exitCode: 1 | 3 | 4 = 1,
  ) {
    super(message);
  }
}

/** Bad input on the command line: exit code 2, with a pointer to the command's help. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Splits repeatable, comma-separated flag values: `--label a,b --label c` → `["a", "b", "c"]`. */
export function splitList(values: string | string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const list = (Array.isArray(values) ? values : [values])
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  return list.length ? list : undefined;
}

/** Checks every value against the allowed set, naming the allowed values when one is not. */
export function oneOf<T extends string>(flag: string, values: string[], allowed: readonly T[]): T[] {
  for (const value of values) {
    if (!allowed.includes(value as T)) {
      throw new UsageError(`invalid value "${value}" for --${flag}; expected one of: ${allowed.join(", ")}`);
    }
  }
  return values as T[];
}

/** A positive whole number flag, e.g. `--limit 20`. */
export function positiveInt(flag: string, value: string): number {
  if (!/^[1-9]\d*$/.test(value))
    throw new UsageError(`invalid value "${value}" for --${flag}; expected a positive number`);
  return Number(value);
}

/** A calendar date flag (`YYYY-MM-DD`), or `none` to clear it when `nullable`. */
export function dateFlag(flag: string, value: string): string;
export function dateFlag(flag: string, value: string, nullable: true): string | null;
export function dateFlag(flag: string, value: string, nullable = false): string | null {
  if (nullable && value === "none") return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new UsageError(
      `invalid value "${value}" for --${flag}; expected a date like 2025-01-31${nullable ? ' or "none"' : ""}`,
    );
  }
  return value;
}

/** A required flag: asked for on a terminal, a usage error otherwise. */
export async function required(
  deps: Deps,
  flag: string,
  value: string | undefined,
  ask: () => Promise<string>,
): Promise<string> {
  if (value !== undefined && value !== "") return value;
  if (!deps.canPrompt) throw new UsageError(`--${flag} is required`);
  return ask();
}
