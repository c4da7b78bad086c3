// Status updates name exactly one subject: a team, a project or an initiative (the contract's listUpdates).
import type { ResponseOf } from "@tracker/sdk";
import { ToolRefusal } from "./errors.js";

export interface Subject {
  team?: string | undefined;
  project?: string | undefined;
  initiative?: string | undefined;
}

/** The one subject the input names, as the API query takes it; anything else is refused with the fix. */
export function subjectOf(input: Subject): { query: Subject; label: string } {
  const given = (["team", "project", "initiative"] as const).filter((k) => input[k] !== undefined);
  if (given.length !== 1)
    throw new ToolRefusal("Name exactly one subject: `team` (key), `project` or `initiative` (name).");
  const kind = given[0]!;
  return { query: { [kind]: input[kind] }, label: `${kind} ${input[kind]}` };
}

/** The candidate issues as a Markdown draft: what was completed since the last update. */
export function draftFromCandidates(candidates: ResponseOf<"getUpdateCandidates">): string {
  if (!candidates.issues.length) return `Nothing was completed since ${candidates.since.at.slice(0, 10)}.`;
  const lines = [`Completed since ${candidates.since.at.slice(0, 10)}:`, ""];
  for (const i of candidates.issues)
    lines.push(`- ${i.identifier} ${i.title}${i.assignee ? ` (${i.assignee})` : ""}`);
  return lines.join("\n");
}
