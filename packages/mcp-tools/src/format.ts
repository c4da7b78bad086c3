import type { Schemas } from "@tracker/sdk";
import { z } from "zod";

type Issue = Schemas["Issue"];

/** A calendar date; a short pattern rather than `z.iso.date()`, whose leap-year regex would flood the schema. */
export const dateInput = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "use YYYY-MM-DD");

/** An ISO date-time with its offset, checked by the same short means (the server checks the calendar). */
export const dateTimeInput = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/,
    "use e.g. 2025-01-31T09:00:00Z",
  );

/** `P1` urgent … `P4` low; `P-` when no priority is set. */
export function priorityTag(priority: number): string {
  return priority === 0 ? "P-" : `P${priority}`;
}

/** An issue as list tools answer it in `structuredContent`: the facts of its text line. */
export const issueRow = z.object({
  identifier: z.string(),
  title: z.string(),
  state: z.string(),
  priority: z.number(),
  assignee: z.string().nullable(),
  dueDate: z.string().nullable(),
});
export type IssueRow = z.output<typeof issueRow> & {
  /** Open issues blocking it, when the list looked (search_issues with special `blocked`). */
  blockedBy?: string[];
  /** Open issues it blocks, when the list looked (special `blocking`). */
  blocks?: string[];
};

/** An issue row with the relations a list of blocked or blocking issues shows. */
export const blockedIssueRow = issueRow.extend({
  blockedBy: z.array(z.string()).optional(),
  blocks: z.array(z.string()).optional(),
});

export function toIssueRow(issue: Issue): IssueRow {
  return {
    identifier: issue.identifier,
    title: issue.title,
    state: issue.state.name,
    priority: issue.priority,
    assignee: issue.assignee?.email ?? null,
    dueDate: issue.dueDate,
  };
}

/**
 * Short handles for the people of a list: the email's local part (`@ada`), or the whole email where two
 * people share a local part, so every handle still names one person.
 */
export function handlesFor(emails: (string | null)[]): Map<string, string> {
  const byLocal = new Map<string, Set<string>>();
  for (const email of emails) {
    if (!email) continue;
    const local = email.split("@")[0]!;
    byLocal.set(local, (byLocal.get(local) ?? new Set()).add(email));
  }
  const handles = new Map<string, string>();
  for (const [local, all] of byLocal)
    for (const email of all) handles.set(email, all.size === 1 ? local : email);
  return handles;
}

/** `ENG-12 [In Progress] P2 @ada due 2025-01-03 Login fails`; `@-` when nobody is assigned. */
export function issueLine(row: IssueRow, handles?: Map<string, string>): string {
  const who = row.assignee ? `@${handles?.get(row.assignee) ?? row.assignee}` : "@-";
  const due = row.dueDate ? ` due ${row.dueDate}` : "";
  const blockedBy = row.blockedBy?.length ? ` · blocked by ${row.blockedBy.join(", ")}` : "";
  const blocks = row.blocks?.length ? ` · blocks ${row.blocks.join(", ")}` : "";
  return `${row.identifier} [${row.state}] ${priorityTag(row.priority)} ${who}${due} ${row.title}${blockedBy}${blocks}`;
}

/** One line per issue, then one line resolving the handles to emails (the values `assignee` takes). */
export function issueLines(rows: IssueRow[]): string[] {
  const handles = handlesFor(rows.map((r) => r.assignee));
  const lines = rows.map((r) => issueLine(r, handles));
  const people = [...handles].filter(([email, handle]) => email !== handle).map(([e, h]) => `@${h}=${e}`);
  if (people.length) lines.push(`people: ${people.join(" ")}`);
  return lines;
}

/** Text indented by two spaces, for bodies under a heading line. */
export function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

/** `2025-01-02T10:00:00.000Z` → `2025-01-02 10:00`: minutes are enough for an agent and save tokens. */
export function shortTime(iso: string): string {
  return iso.replace("T", " ").slice(0, 16);
}

/** A progress object as `40% (4/10)`. */
export function progressText(p: Pick<Schemas["Progress"], "percent" | "done" | "total">): string {
  return `${p.percent}% (${p.done}/${p.total})`;
}

/** Facts joined by ` · `, empty ones left out. */
export function facts(...parts: (string | false | null | undefined)[]): string {
  return parts.filter(Boolean).join(" · ");
}
