import type { CommonOptions, Deps } from "./command.js";
import { UsageError } from "./command.js";

type Styled = (text: string) => string;

export interface Palette {
  bold: Styled;
  dim: Styled;
  red: Styled;
  green: Styled;
  yellow: Styled;
  blue: Styled;
  magenta: Styled;
  cyan: Styled;
  gray: Styled;
}

export function useColour(deps: Pick<Deps, "isTTY" | "env">): boolean {
  return deps.isTTY && !deps.env.NO_COLOR && deps.env.TERM !== "dumb";
}

const sgr =
  (open: number, close: number): Styled =>
  (text) =>
    `\x1b[${open}m${text}\x1b[${close}m`;
const plain: Styled = (text) => text;

/** ANSI styles on a colour terminal (respecting NO_COLOR and TERM=dumb), identity functions otherwise. */
export function palette(deps: Pick<Deps, "isTTY" | "env">): Palette {
  const on = useColour(deps);
  const pick = (open: number, close: number) => (on ? sgr(open, close) : plain);
  return {
    bold: pick(1, 22),
    dim: pick(2, 22),
    red: pick(31, 39),
    green: pick(32, 39),
    yellow: pick(33, 39),
    blue: pick(34, 39),
    magenta: pick(35, 39),
    cyan: pick(36, 39),
    gray: pick(90, 39),
  };
}

export function bold(deps: Pick<Deps, "isTTY" | "env">, text: string): string {
  return palette(deps).bold(text);
}

export function dim(deps: Pick<Deps, "isTTY" | "env">, text: string): string {
  return palette(deps).dim(text);
}

/** The colour people expect for a workflow state type: grey backlog, blue started, green done, red canceled. */
export function stateStyle(colours: Palette, type: string): Styled {
  switch (type) {
    case "backlog":
      return colours.gray;
    case "unstarted":
      return plain;
    case "started":
      return colours.yellow;
    case "completed":
      return colours.green;
    case "canceled":
      return colours.dim;
    default:
      return plain;
  }
}

/** The colour of a computed health value. */
export function healthStyle(colours: Palette, health: string): Styled {
  return health === "on_track" ? colours.green : health === "at_risk" ? colours.yellow : colours.red;
}

export interface Column<T> {
  header: string;
  /** The cell as printed when piped: complete and machine-friendly (emails, ISO timestamps). */
  value: (row: T) => string;
  /** The cell on a terminal, when it differs (names, relative dates). */
  tty?: (row: T) => string;
  /** Longest cell on a terminal; longer text is cut with an ellipsis. */
  max?: number;
  /** This column gives up width first when the table is wider than the terminal (titles, names). */
  flex?: boolean;
  /** Colour of the cell on a colour terminal. */
  style?: (row: T, colours: Palette) => Styled;
}

const length = (text: string) => [...text].length;

function truncate(text: string, max: number | undefined): string {
  const chars = [...text];
  if (max === undefined || chars.length <= max) return text;
  return max <= 1 ? chars.slice(0, max).join("") : `${chars.slice(0, max - 1).join("")}…`;
}

/** Tabs and newlines inside a cell would break a tab-separated row. */
function flatten(text: string): string {
  return text.replace(/[\t\r\n]+/g, " ");
}

const FLEX_MIN = 12;

/**
 * Prints rows as an aligned table with a header on a terminal, fitted to its width, or as tab-separated
 * lines without a header when piped (after `gh`), so `cut -f1` and `awk -F'\t'` work.
 */
export function printTable<T>(deps: Deps, rows: T[], columns: Column<T>[]): void {
  if (!deps.isTTY) {
    for (const row of rows) deps.stdout.write(`${columns.map((c) => flatten(c.value(row))).join("\t")}\n`);
    return;
  }
  const colours = palette(deps);
  const cells = rows.map((row) => columns.map((c) => truncate(flatten((c.tty ?? c.value)(row)), c.max)));
  // Columns that are empty on every row are left out on a terminal: they would only take room.
  const shown = columns.map((_, i) => cells.some((r) => r[i] !== ""));
  const widths = columns.map((c, i) => Math.max(length(c.header), ...cells.map((r) => length(r[i]!))));
  const visible = (i: number) => shown[i] || rows.length === 0;
  const total = () => widths.reduce((sum, w, i) => (visible(i) ? sum + w + 2 : sum), -2);
  let excess = total() - deps.columns;
  for (let i = 0; i < columns.length && excess > 0; i++) {
    if (!columns[i]!.flex || !visible(i)) continue;
    const floor = Math.max(FLEX_MIN, length(columns[i]!.header));
    const cut = Math.min(excess, Math.max(0, widths[i]! - floor));
    widths[i]! -= cut;
    excess -= cut;
  }
  const lastVisible = columns
    .map((_, i) => i)
    .filter(visible)
    .pop();
  const line = (parts: string[], style: (i: number) => Styled) =>
    parts
      .map((part, i) => {
        if (!visible(i)) return undefined;
        const text = truncate(part, widths[i]);
        const padded = i === lastVisible ? text : text + " ".repeat(Math.max(0, widths[i]! - length(text)));
        return style(i)(padded);
      })
      .filter((p) => p !== undefined)
      .join("  ")
      .trimEnd();
  deps.stdout.write(
    `${line(
      columns.map((c) => c.header),
      () => colours.bold,
    )}\n`,
  );
  rows.forEach((row, r) => {
    deps.stdout.write(`${line(cells[r]!, (i) => columns[i]!.style?.(row, colours) ?? plain)}\n`);
  });
}

/** Keeps the named top-level fields of an object, or of each object in a list. */
export function pickFields(value: unknown, fields: string[]): unknown {
  const items = Array.isArray(value) ? value : [value];
  const objects = items.filter((v): v is Record<string, unknown> => typeof v === "object" && v !== null);
  if (objects.length > 0) {
    const known = new Set(objects.flatMap((o) => Object.keys(o)));
    const unknown = fields.filter((f) => !known.has(f));
    if (unknown.length) {
      throw new UsageError(
        `unknown JSON field${unknown.length > 1 ? "s" : ""} ${unknown.map((f) => `"${f}"`).join(", ")}; ` +
          `available: ${[...known].join(", ")}`,
      );
    }
  }
  const pick = (v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? Object.fromEntries(fields.map((f) => [f, (v as Record<string, unknown>)[f] ?? null]))
      : v;
  return Array.isArray(value) ? value.map(pick) : pick(value);
}

/**
 * Prints JSON data: the whole value, or only `--json` fields, then filtered by `--jq` (strings printed raw,
 * as gh does). Pretty on a terminal, one line per value when piped to another program.
 */
export async function printJson(deps: Deps, value: unknown): Promise<void> {
  const picked = deps.json.fields ? pickFields(value, deps.json.fields) : value;
  if (deps.json.jq !== undefined) {
    const { runJq } = await import("./jq.js");
    deps.stdout.write(await runJq(picked ?? null, deps.json.jq, { pretty: deps.isTTY }));
    return;
  }
  deps.stdout.write(`${JSON.stringify(picked ?? null, null, 2)}\n`);
}

/** One JSON value per line (`events tail --json`): compact, with `--json` fields and `--jq` applied. */
export async function printJsonLine(deps: Deps, value: unknown): Promise<void> {
  const picked = deps.json.fields ? pickFields(value, deps.json.fields) : value;
  if (deps.json.jq !== undefined) {
    const { runJq } = await import("./jq.js");
    deps.stdout.write(await runJq(picked ?? null, deps.json.jq, { pretty: false }));
    return;
  }
  deps.stdout.write(`${JSON.stringify(picked ?? null)}\n`);
}

/** A list as JSON (`--json`), or a table; on a terminal an empty list says so on stderr. */
export async function printList<T>(
  deps: Deps,
  opts: CommonOptions,
  rows: T[],
  columns: Column<T>[],
  empty = "Nothing to show.",
): Promise<void> {
  if (opts.json) return printJson(deps, rows);
  if (deps.isTTY && rows.length === 0) return say(deps, empty);
  printTable(deps, rows, columns);
}

/**
 * One record: `key:\tvalue` lines when piped, like `gh issue view`, so scripts can grep a field;
 * aligned `Key  value` lines on a terminal.
 */
export function printFields(deps: Deps, fields: [string, string][]): void {
  if (!deps.isTTY) {
    for (const [key, value] of fields) deps.stdout.write(`${key}:\t${flatten(value)}\n`);
    return;
  }
  const colours = palette(deps);
  const width = Math.max(...fields.map(([key]) => key.length));
  for (const [key, value] of fields) {
    if (value === "") continue;
    deps.stdout.write(`${colours.dim(`${key}:`.padEnd(width + 2))}${value}\n`);
  }
}

/** A message for people, not data: stderr, so pipes carry only data. */
export function say(deps: Pick<Deps, "stderr">, message: string): void {
  deps.stderr.write(`${message}\n`);
}

/** "3 days ago"-style time for terminals; scripts get the ISO timestamp. */
export function relativeTime(iso: string | null, now = Date.now()): string {
  if (!iso) return "";
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  const future = seconds < 0;
  const abs = Math.abs(seconds);
  const units: [number, string][] = [
    [365 * 86400, "year"],
    [30 * 86400, "month"],
    [86400, "day"],
    [3600, "hour"],
    [60, "minute"],
  ];
  for (const [size, unit] of units) {
    if (abs >= size) {
      const n = Math.floor(abs / size);
      const phrase = `${n} ${unit}${n === 1 ? "" : "s"}`;
      return future ? `in ${phrase}` : `${phrase} ago`;
    }
  }
  return "just now";
}

export interface Progress {
  update(text: string): void;
  done(): void;
}

/**
 * A progress line for long work (every page of a list, bulk edits), redrawn in place on stderr, and only
 * when stderr is a terminal: piped and logged runs stay quiet.
 */
export function progress(deps: Pick<Deps, "stderr" | "stderrTTY">): Progress {
  if (!deps.stderrTTY) return { update() {}, done() {} };
  let shown = false;
  return {
    update(text) {
      shown = true;
      deps.stderr.write(`\r\x1b[K${text}`);
    },
    done() {
      if (shown) deps.stderr.write("\r\x1b[K");
      shown = false;
    },
  };
}

/** Percent and a small bar for progress of projects and initiatives: `▰▰▰▱▱ 60%`. */
export function progressBar(percent: number, cells = 10): string {
  const filled = Math.round((percent / 100) * cells);
  return `${"▰".repeat(filled)}${"▱".repeat(cells - filled)} ${percent}%`;
}
