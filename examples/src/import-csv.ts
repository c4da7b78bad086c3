/**
 * Files issues from a CSV export (columns: title, description, priority, labels, assignee, dueDate;
 * labels separated by ";"; priority as a name, `urgent`, `high`, `medium`, `low` or `none`, or 0-4, as
 * the CLI takes it), 100 rows to a request. Rows that fail are reported with the reason; the rest go in, and
 * running it again on the same file creates nothing twice.
 *
 *   TRACKER_API_KEY=... npm run import-csv -w @tracker/examples -- --team ENG --file backlog.csv
 */
import { readFileSync } from "node:fs";
import { type BodyOf, createTracker, PRIORITY_NAMES, parsePriority, type Tracker } from "@tracker/sdk";
import { flags, isMain, runMain } from "./cli-args.js";

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and newlines. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows.filter((r) => r.some((f) => f.trim()));
}

export interface ImportResult {
  created: string[];
  failed: { line: number; reason: string }[];
}

export async function importCsv(tracker: Tracker, team: string, csv: string): Promise<ImportResult> {
  const [header, ...rows] = parseCsv(csv);
  if (!header) return { created: [], failed: [] };
  const col = (name: string) => header.findIndex((h) => h.trim().toLowerCase() === name.toLowerCase());
  const at = (row: string[], name: string) => {
    const i = col(name);
    const v = i >= 0 ? row[i]?.trim() : undefined;
    return v ? v : undefined;
  };
  const result: ImportResult = { created: [], failed: [] };
  const rowsToSend: { line: number; body: BodyOf<"createIssue"> }[] = [];
  for (const [index, row] of rows.entries()) {
    const line = index + 2;
    const priorityText = at(row, "priority");
    // A name is read here, as the CLI reads --priority; everything else the server judges.
    const priority = priorityText === undefined ? undefined : parsePriority(priorityText);
    if (priorityText !== undefined && priority === undefined) {
      const names = PRIORITY_NAMES.filter((n) => n !== "none").join(", ");
      result.failed.push({ line, reason: `priority "${priorityText}": expected ${names}, none or 0-4` });
      continue;
    }
    rowsToSend.push({
      line,
      body: {
        team,
        title: at(row, "title") ?? "",
        description: at(row, "description"),
        priority,
        labels: at(row, "labels")
          ?.split(";")
          .map((l) => l.trim())
          .filter(Boolean),
        assignee: at(row, "assignee"),
        dueDate: at(row, "dueDate"),
      },
    });
  }
  // 100 rows to a request, each batch once however often the script is run; a refused row is reported
  // and the others still go in.
  const { created, refused } = await tracker.issues.import(rowsToSend.map((r) => r.body));
  result.created.push(...created.map((c) => c.issue.identifier));
  for (const { index, reason } of refused) result.failed.push({ line: rowsToSend[index]!.line, reason });
  result.failed.sort((a, b) => a.line - b.line);
  return result;
}

if (isMain(import.meta.url)) {
  await runMain(async () => {
    const opts = flags(
      { team: { type: "string", required: true }, file: { type: "string", required: true } },
      "Usage: import-csv --team <KEY> --file <issues.csv>",
    );
    const result = await importCsv(createTracker(), opts.team!, readFileSync(opts.file!, "utf8"));
    for (const id of result.created) console.log(id);
    for (const f of result.failed) console.error(`line ${f.line}: ${f.reason}`);
    process.exitCode = result.failed.length ? 1 : 0;
  });
}
