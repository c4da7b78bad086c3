// What a write did besides what it was asked to: the contract creates unknown labels on the fly and
// moves an issue out of its old project or cycle; an agent should be told, not find out later.
import type { CallOptions, Schemas, Tracker } from "@tracker/sdk";

/**
 * Of `names`, those no label has yet (compared as the server compares them, case-insensitively): the
 * labels a write naming them will create. Reads the labels only when names are given.
 */
export async function labelsToCreate(
  tracker: Tracker,
  names: readonly string[],
  read: CallOptions,
): Promise<string[]> {
  if (names.length === 0) return [];
  const known = new Set((await tracker.labels.list({}, read)).map((l) => l.name.toLowerCase()));
  const fresh = new Map<string, string>();
  for (const name of names) {
    const key = name.trim().toLowerCase();
    if (!known.has(key) && !fresh.has(key)) fresh.set(key, name.trim());
  }
  return [...fresh.values()];
}

/** A line for the labels a write created, or nothing. */
export function createdLabelsLine(created: string[]): string[] {
  return created.length ? [`New labels created: ${created.join(", ")}.`] : [];
}

/** What an issue left when a write changed its project or cycle: `ENG-3 left project "Launch"`. */
export function leftLine(before: Schemas["Issue"], after: Schemas["Issue"]): string | undefined {
  const parts: string[] = [];
  if (before.project && before.project.id !== after.project?.id)
    parts.push(`left project "${before.project.name}"${after.project ? ` for "${after.project.name}"` : ""}`);
  if (before.cycle && before.cycle.number !== after.cycle?.number)
    parts.push(`left cycle ${before.cycle.number}${after.cycle ? ` for ${after.cycle.number}` : ""}`);
  return parts.length ? `${after.identifier} ${parts.join(", ")}` : undefined;
}
