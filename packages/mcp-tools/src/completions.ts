// Argument completion (`completion/complete`) for resource templates and prompts: the values people would
// otherwise have to look up first. Each answers at most 100 values (the protocol's limit), best first.
import type { ToolDeps } from "./deps.js";

const MAX = 100;
const TTL_MS = 10_000;

// A client asks on every keystroke: keep each list for a few seconds per client.
type Cache = Map<string, { at: number; value: Promise<string[]> }>;
const caches = new WeakMap<ToolDeps, Cache>();

function cached(deps: ToolDeps, key: string, load: () => Promise<string[]>): Promise<string[]> {
  const cache: Cache = caches.get(deps) ?? new Map();
  caches.set(deps, cache);
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
  const value = load().catch(() => []);
  cache.set(key, { at: Date.now(), value });
  return value;
}

/** Values starting with what was typed first, then those containing it, case-insensitively. */
export function matching(values: string[], typed: string): string[] {
  const t = typed.toLowerCase();
  const starts = values.filter((v) => v.toLowerCase().startsWith(t));
  const contains = values.filter((v) => !v.toLowerCase().startsWith(t) && v.toLowerCase().includes(t));
  return [...starts, ...contains].slice(0, MAX);
}

const opts = (deps: ToolDeps) => ({ timeoutMs: deps.timeoutMs });

export async function completeTeamKeys(deps: ToolDeps, typed: string): Promise<string[]> {
  const keys = await cached(deps, "teams", async () =>
    (await deps.tracker.teams.listAll(opts(deps))).map((t) => t.key),
  );
  return matching(keys, typed);
}

export async function completeStates(
  deps: ToolDeps,
  team: string | undefined,
  typed: string,
): Promise<string[]> {
  const states = await cached(deps, `states:${team ?? ""}`, async () => {
    const teams = await deps.tracker.teams.list(opts(deps));
    const chosen = team ? teams.filter((t) => t.key.toUpperCase() === team.toUpperCase()) : teams;
    return [...new Set(chosen.flatMap((t) => t.states.map((s) => s.name)))];
  });
  return matching(states, typed);
}

export async function completeLabels(deps: ToolDeps, typed: string): Promise<string[]> {
  const names = await cached(deps, "labels", async () =>
    (await deps.tracker.labels.list({}, opts(deps))).map((l) => l.name),
  );
  return matching(names, typed);
}

export async function completeProjects(deps: ToolDeps, typed: string): Promise<string[]> {
  const names = await cached(deps, "projects", async () =>
    (await deps.tracker.projects.list({ sort: "-updated", limit: 200 }, opts(deps))).items.map((p) => p.name),
  );
  return matching(names, typed);
}

const IDENTIFIER_PREFIX = /^([A-Za-z][A-Za-z0-9]*)(-(\d*))?$/;

/**
 * Issue identifiers for what was typed: `ENG-1` → the team's issues whose number starts so (most recently
 * updated first); words → issues matching them in full text.
 */
export async function completeIdentifiers(deps: ToolDeps, typed: string): Promise<string[]> {
  const trimmed = typed.trim();
  const prefix = IDENTIFIER_PREFIX.exec(trimmed);
  if (prefix?.[2] !== undefined) {
    const team = prefix[1]!.toUpperCase();
    const teams = await completeTeamKeys(deps, team);
    if (!teams.includes(team)) return [];
    const page = await deps.tracker.issues
      .list({ team, sort: "-updated", limit: 200 }, opts(deps))
      .catch(() => ({ items: [] }));
    return page.items
      .map((i) => i.identifier)
      .filter((id) => id.startsWith(`${team}-${prefix[3]}`))
      .slice(0, MAX);
  }
  if (prefix && !prefix[2]) {
    // Only letters so far: the team keys, each ready for its number.
    const teams = await completeTeamKeys(deps, trimmed);
    if (teams.length) return teams.map((k) => `${k}-`);
  }
  if (trimmed.length < 2) return [];
  const page = await deps.tracker.issues
    .list({ q: trimmed.slice(0, 200), limit: 20 }, opts(deps))
    .catch(() => ({ items: [] }));
  return page.items.map((i) => i.identifier);
}

export async function completeDocuments(deps: ToolDeps, typed: string): Promise<string[]> {
  const docs = await deps.tracker.documents
    .list(typed.trim().length >= 2 ? { q: typed.trim().slice(0, 200) } : {}, opts(deps))
    .catch(() => []);
  return docs.slice(0, MAX).map((d) => d.id);
}
