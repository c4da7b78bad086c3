import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { UsageError } from "../../command.js";

/**
 * A CSV export as rows of named cells. Jira repeats a column for each value of a field (Labels, Comment,
 * Sprint, ...), so each name maps to every cell under it, in order; `one` is the first non-empty one.
 */
export interface CsvRow {
  one(column: string): string | undefined;
  all(column: string): string[];
}

export function readCsv(file: string): CsvRow[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (err) {
    throw new UsageError(`${file} is not CSV: ${(err as Error).message}`);
  }
  const [header, ...rows] = records;
  if (!header) throw new UsageError(`${file} is empty`);
  const columns = new Map<string, number[]>();
  header.forEach((name, i) => {
    const key = name.trim().toLowerCase();
    columns.set(key, [...(columns.get(key) ?? []), i]);
  });
  return rows.map((cells) => {
    const all = (column: string) =>
      (columns.get(column.toLowerCase()) ?? []).map((i) => (cells[i] ?? "").trim()).filter((v) => v !== "");
    return { all, one: (column) => all(column)[0] };
  });
}
