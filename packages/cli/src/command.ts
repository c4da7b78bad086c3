import type { Tracker } from "@tracker/sdk";

/** Where a command writes: `process.stdout` in the shell, a string buffer in tests. */
export interface Output {
  write(chunk: string): unknown;
}

/** Everything a command needs from the outside world, passed in so tests can call `run` directly. */
export interface Deps {
  tracker: Tracker;
  stdout: Output;
  stderr: Output;
  /** True when stdout is a terminal: aligned tables and colour instead of tab-separated text. */
  isTTY: boolean;
  env: Record<string, string | undefined>;
}

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** Repeatable (`--label a --label b`); the value is a list. */
  multiple?: boolean;
  description: string;
  /** Placeholder shown in help, e.g. `KEY`. */
  value?: string;
}

export type OptionSpecs = Record<string, OptionSpec>;

type ValueOf<S extends OptionSpec> = S["type"] extends "boolean"
  ? boolean
  : S["multiple"] extends true
    ? string[]
    : string;

/**
 * A command's declaration: its name, help text, positional arguments (all required) and flags. Flag keys
 * are camelCase and spelled kebab-case on the command line (`stateType` is `--state-type`).
 */
export interface CommandSpec<
  O extends OptionSpecs = OptionSpecs,
  A extends readonly string[] = readonly string[],
> {
  /** As typed after `tracker`, e.g. `issues list`. */
  name: string;
  summary: string;
  description?: string;
  args: A;
  options: O;
  examples?: string[];
}

/** Flags every command accepts. */
export interface CommonOptions {
  /** Print the JSON payload instead of text. */
  json?: boolean;
}

/** The parsed input of a command: its flags, its positional arguments by name, and the common flags. */
export type Opts<C extends CommandSpec> = { [K in keyof C["options"]]?: ValueOf<C["options"][K]> } & {
  [K in C["args"][number]]: string;
} & CommonOptions;

export interface Command<C extends CommandSpec = CommandSpec> {
  spec: C;
  run(opts: Opts<C>, deps: Deps): Promise<void>;
}

/** Declares a command's spec with its literal types kept, so `Opts<typeof spec>` knows every flag. */
export function defineCommand<const O extends OptionSpecs, const A extends readonly string[]>(
  spec: CommandSpec<O, A>,
): CommandSpec<O, A> {
  return spec;
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
