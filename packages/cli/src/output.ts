import type { Deps } from "./command.js";

export interface Column<T> {
  header: string;
  /** The cell as printed when piped: complete and machine-friendly (emails, ISO timestamps). */
  value: (row: T) => string;
  /** The cell on a terminal, when it differs (names, relative dates). */
  tty?: (row: T) => string;
  /** Longest cell on a terminal; longer text is cut with an ellipsis. */
  max?: number;
}

export function useColour(deps: Pick<Deps, "isTTY" | "env">): boolean {
  return deps.isTTY && !deps.env.NO_COLOR && deps.env.TERM !== "dumb";
}

export function bold(deps: Pick<Deps, "isTTY" | "env">, text: string): string {
  return useColour(deps) ? `\x1b[1m${text}\x1b[22m` : text;
}

export function dim(deps: Pick<Deps, "isTTY" | "env">, text: string): string {
  return useColour(deps) ? `\x1b[2m${text}\x1b[22m` : text;
}

function truncate(text: string, max: number | undefined): string {
  const chars = [...text];
  return max !== undefined && chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}

/** Tabs and newlines inside a cell would break a tab-separated row. */
function flatten(text: string): string {
  return text.replace(/[\t\r\n]+/g, " ");
}

/**
 * Prints rows as an aligned table with a header on a terminal, or as tab-separated lines without a header
 * when piped (after `gh`), so `cut -f1` and `awk -F'\t'` work.
 */
export function printTable<T>(deps: Deps, rows: T[], columns: Column<T>[]): void {
  if (!deps.isTTY) {
    for (const row of rows) deps.stdout.write(`${columns.map((c) => flatten(c.value(row))).join("\t")}\n`);
    return;
  }
  const cells = rows.map((row) => columns.map((c) => truncate(flatten((c.tty ?? c.value)(row)), c.max)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => [...r[i]!].length)));
  const line = (parts: string[], style: (s: string) => string = (s) => s) =>
    parts
      .map((part, i) =>
        i === parts.length - 1
          ? style(part)
          : style(part.padEnd(widths[i]! + part.length - [...part].length)),
      )
      .join("  ")
      .trimEnd();
  deps.stdout.write(
    `${line(
      columns.map((c) => c.header),
      (s) => bold(deps, s),
    )}\n`,
  );
  for (const row of cells) deps.stdout.write(`${line(row)}\n`);
}

export function printJson(deps: Deps, value: unknown): void {
  deps.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A message for people, not data: stderr, so pipes carry only data. */
export function say(deps: Deps, message: string): void {
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
