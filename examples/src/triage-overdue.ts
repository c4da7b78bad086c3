/**
 * Nudges overdue work: for every open, overdue issue of a team, leaves one comment a day asking its
 * assignee for a new date (or asking for an owner when nobody has it). Dry run unless --apply.
 *
 *   TRACKER_API_KEY=... npm run triage-overdue -w @tracker/examples -- --team ENG --apply
 */
import { createTracker, type Schemas, type Tracker } from "@tracker/sdk";
import { flags, isMain, runMain } from "./cli-args.js";

const MARKER = "[overdue-triage]";

export interface TriageResult {
  identifier: string;
  dueDate: string | null;
  assignee: string | null;
  action: "commented" | "would-comment" | "already-nudged-today";
}

function nudge(issue: Schemas["Issue"]): string {
  const who = issue.assignee ? `@${issue.assignee.email}` : "Nobody owns this yet";
  const ask = issue.assignee ? "can you give it a new due date, or say what blocks it?" : "who can take it?";
  return `${MARKER} This was due ${issue.dueDate}. ${who}: ${ask}`;
}

export async function triageOverdue(tracker: Tracker, team: string, apply: boolean): Promise<TriageResult[]> {
  const today = new Date().toISOString().slice(0, 10);
  const results: TriageResult[] = [];
  for await (const issue of tracker.issues.iterate({ team, special: ["overdue"], sort: "due" })) {
    const base = {
      identifier: issue.identifier,
      dueDate: issue.dueDate,
      assignee: issue.assignee?.email ?? null,
    };
    const comments = await tracker.comments.list(issue.identifier);
    const nudgedToday = comments.some((c) => c.body.startsWith(MARKER) && c.createdAt.slice(0, 10) === today);
    if (nudgedToday) {
      results.push({ ...base, action: "already-nudged-today" });
      continue;
    }
    if (apply) await tracker.comments.create(issue.identifier, { body: nudge(issue) });
    results.push({ ...base, action: apply ? "commented" : "would-comment" });
  }
  return results;
}

if (isMain(import.meta.url)) {
  await runMain(async () => {
    const opts = flags(
      { team: { type: "string", required: true }, apply: { type: "boolean" } },
      "Usage: triage-overdue --team <KEY> [--apply]",
    );
    const results = await triageOverdue(createTracker(), opts.team!, opts.apply);
    for (const r of results)
      console.log(`${r.identifier}\tdue ${r.dueDate}\t${r.assignee ?? "unassigned"}\t${r.action}`);
    console.error(
      `${results.length} overdue issue(s)${opts.apply ? "" : " (dry run: pass --apply to comment)"}`,
    );
  });
}
