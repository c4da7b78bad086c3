import type { BodyOf, Schemas, Tracker } from "@tracker/sdk";
import type { Deps } from "../../command.js";
import { progress } from "../../output.js";

/**
 * What every `tracker import <source>` shares: the workspace's labels, projects and cycles made to exist
 * first, then the issues sent through the API's import mode (`POST /import/issues`), whose `source` makes a
 * second run update what the first created instead of creating it again.
 */

export type ImportItem = BodyOf<"importIssues">["issues"][number];
export type ImportComment = NonNullable<ImportItem["comments"]>[number];

/** What an import did, as the command reports it. */
export interface ImportTally {
  created: number;
  updated: number;
  comments: { created: number; updated: number };
  identifiers: Map<string, string>;
}

/** The most a request carries: 100 items, and well under the server's 1 MiB body. */
const MAX_ITEMS = 100;
const MAX_BYTES = 700_000;

/**
 * Sends the items in order, in requests of up to 100 (fewer when their comments are long), each request
 * all or nothing. Parents must come before their sub-issues (`parentSource`).
 */
export async function sendIssues(
  deps: Pick<Deps, "call" | "stderr" | "stderrTTY">,
  tracker: Tracker,
  items: ImportItem[],
  names: Record<string, string> = {},
): Promise<ImportTally> {
  const tally: ImportTally = {
    created: 0,
    updated: 0,
    comments: { created: 0, updated: 0 },
    identifiers: new Map(),
  };
  const bar = progress(deps);
  try {
    let start = 0;
    while (start < items.length) {
      const batch: ImportItem[] = [];
      let bytes = 0;
      while (start + batch.length < items.length && batch.length < MAX_ITEMS) {
        const next = items[start + batch.length]!;
        const size = JSON.stringify(next).length;
        if (batch.length > 0 && bytes + size > MAX_BYTES) break;
        batch.push(next);
        bytes += size;
      }
      const wanted = new Set(
        batch.flatMap((i) => [i.creator, i.assignee, ...(i.comments ?? []).map((c) => c.author)]),
      );
      const batchNames = Object.fromEntries(Object.entries(names).filter(([email]) => wanted.has(email)));
      const answer = await tracker.issues.importFrom(batch, {
        ...deps.call,
        ...(Object.keys(batchNames).length ? { names: batchNames } : {}),
      });
      for (const item of answer.issues) {
        tally[item.result] += 1;
        tally.identifiers.set(`${item.source.system}\0${item.source.id}`, item.issue.identifier);
        for (const c of item.comments) tally.comments[c.result] += 1;
      }
      start += batch.length;
      bar.update(`Imported ${start} of ${items.length} issues…`);
    }
  } finally {
    bar.done();
  }
  return tally;
}

/** Orders items so that each parent comes before its sub-issues (otherwise keeping their order). */
export function parentsFirst(items: ImportItem[]): ImportItem[] {
  const key = (s: { system: string; id: string }) => `${s.system}\0${s.id}`;
  const byKey = new Map(items.map((i) => [key(i.source), i]));
  const out: ImportItem[] = [];
  const placed = new Set<string>();
  const place = (item: ImportItem, depth = 0) => {
    const k = key(item.source);
    if (placed.has(k)) return;
    placed.add(k);
    const parent = item.parentSource ? byKey.get(key(item.parentSource)) : undefined;
    if (parent && depth < 50) place(parent, depth + 1);
    out.push(item);
  };
  for (const item of items) place(item);
  // A parent the file does not hold (nor an earlier run) would be refused: drop the link, keep the issue.
  return out.map((i) =>
    i.parentSource && !byKey.has(key(i.parentSource)) ? { ...i, parentSource: undefined } : i,
  );
}

/** Labels made to exist, with their colours (a label that exists keeps its colour unless `recolour`). */
export async function ensureLabels(
  deps: Pick<Deps, "call">,
  tracker: Tracker,
  labels: { name: string; color?: string | undefined; description?: string | null }[],
  recolour = false,
): Promise<number> {
  const existing = new Map((await tracker.labels.list({}, deps.call)).map((l) => [l.name.toLowerCase(), l]));
  let created = 0;
  for (const label of labels) {
    const had = existing.get(label.name.toLowerCase());
    if (!had) {
      const made = await tracker.labels.create(
        {
          name: label.name,
          ...(label.color ? { color: label.color } : {}),
          ...(label.description ? { description: label.description } : {}),
        },
        deps.call,
      );
      existing.set(label.name.toLowerCase(), made as Schemas["Label"] as never);
      created += 1;
    } else if (recolour && label.color && had.color.toLowerCase() !== label.color.toLowerCase()) {
      await tracker.labels.update(had.id, { color: label.color }, deps.call);
    }
  }
  return created;
}

/** Projects made to exist by name, each including `team`; the number created. */
export async function ensureProjects(
  deps: Pick<Deps, "call">,
  tracker: Tracker,
  projects: BodyOf<"createProject">[],
): Promise<number> {
  const existing = new Set<string>();
  for await (const p of tracker.projects.iterate({}, deps.call)) existing.add(p.name.toLowerCase());
  let created = 0;
  for (const project of projects) {
    if (existing.has(project.name.toLowerCase())) continue;
    await tracker.projects.create(project, deps.call);
    existing.add(project.name.toLowerCase());
    created += 1;
  }
  return created;
}

/**
 * Cycles made to exist in a team, in order: each named cycle that the team has no cycle of that name for
 * is created with its dates (`rollover: false`, so nothing moves). Answers each name's cycle number.
 */
export async function ensureCycles(
  deps: Pick<Deps, "call">,
  tracker: Tracker,
  team: string,
  cycles: { name: string; startsAt: string; endsAt: string }[],
): Promise<Map<string, number>> {
  const numbers = new Map<string, number>();
  if (cycles.length === 0) return numbers;
  const teamRow = await tracker.teams.get(team, deps.call);
  if (!teamRow.cyclesEnabled) await tracker.teams.update(team, { cyclesEnabled: true }, deps.call);
  for (const c of await tracker.cycles.list(team, deps.call)) if (c.name) numbers.set(c.name, c.number);
  const sorted = [...cycles].sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  for (const c of sorted) {
    if (numbers.has(c.name)) continue;
    const made = await tracker.cycles.create(
      { team, name: c.name, startsAt: c.startsAt, endsAt: c.endsAt, rollover: false },
      deps.call,
    );
    numbers.set(c.name, made.cycle.number);
  }
  return numbers;
}

/** The closing line: what was created and updated. */
export function tallyLine(t: ImportTally): string {
  return (
    `${t.created} issues created, ${t.updated} updated; ` +
    `${t.comments.created} comments created, ${t.comments.updated} updated`
  );
}
