import type { EntityManager } from "@mikro-orm/postgresql";
import type { StateType } from "../../rules/state-types.js";
import { readWorkspaceNames } from "./workspace-names.query.js";

/**
 * The names an issue list shows for what its issues refer to, for one workspace at one `names_version`:
 * teams, workflow states, members, projects, cycles and labels, keyed by id. A list statement reads the
 * workspace's version in its own snapshot; while it equals the cached one, these names are exactly what the
 * statement would have read (triggers bump the version in the same transaction as any change to them:
 * migration `…_workspace_names_version`). So a list page reads no reference rows, and several servers on
 * one database each keep their own copy without ever showing another's stale name. Project lists take
 * their teams' names from here the same way.
 */
export interface WorkspaceNames {
  version: string;
  teams: Record<string, [key: string, name: string]>;
  states: Record<string, [name: string, type: StateType]>;
  users: Record<string, [name: string, email: string]>;
  projects: Record<string, string>;
  cycles: Record<string, number>;
  /** name, and the position of the name in the order an issue's labels are shown */
  labels: Record<string, [name: string, position: number]>;
}

/** Workspaces whose names are kept, per server; past this, the least recently loaded is dropped. */
const MAX_WORKSPACES = 256;
/** Per ORM connection (one per server instance), its cache by workspace id. */
const caches = new WeakMap<object, Map<string, WorkspaceNames>>();

function cacheOf(em: EntityManager): Map<string, WorkspaceNames> {
  const connection = em.getConnection();
  let cache = caches.get(connection);
  if (!cache) {
    cache = new Map();
    caches.set(connection, cache);
  }
  return cache;
}

/**
 * Reads the workspace's names afresh (one statement, one snapshot) and caches them. Their version may be
 * newer than a statement that ran just before: callers compare it.
 */
async function loadNames(em: EntityManager, workspaceId: string): Promise<WorkspaceNames | undefined> {
  const row = await readWorkspaceNames(em, workspaceId);
  if (!row) return undefined;
  const names: WorkspaceNames = { version: row.version, ...row.names };
  const cache = cacheOf(em);
  cache.delete(workspaceId);
  if (cache.size >= MAX_WORKSPACES) cache.delete(cache.keys().next().value!);
  cache.set(workspaceId, names);
  return names;
}

/**
 * The newest names this server holds for the workspace (read now if it holds none). A statement that
 * relies on them must check that it ran at their version (`names_version` only grows).
 */
export async function latestNames(
  em: EntityManager,
  workspaceId: string,
): Promise<WorkspaceNames | undefined> {
  return cacheOf(em).get(workspaceId) ?? (await loadNames(em, workspaceId));
}

/**
 * Answers `read` given the names this server holds for the workspace (read now if it holds none), for a
 * read that compiles names into its statement (a list filtered by label names compares label ids). Such a
 * read answers `undefined` when its statement ran at another names version than those names' (they changed
 * in between): it is then answered once more without them, matching the names in SQL, and that answer is
 * the one given. So a stale cache costs a second statement, never a wrong answer.
 */
export async function withLatestNames<T>(
  em: EntityManager,
  workspaceId: string,
  read: (names: WorkspaceNames | undefined) => Promise<T | undefined>,
): Promise<T> {
  const answer = await read(await latestNames(em, workspaceId));
  return answer ?? (await read(undefined))!;
}

/** The names at exactly `version`: cached, or read now if the workspace is still there. */
export async function namesAt(
  em: EntityManager,
  workspaceId: string,
  version: string,
): Promise<WorkspaceNames | undefined> {
  const cached = cacheOf(em).get(workspaceId);
  if (cached?.version === version) return cached;
  const loaded = await loadNames(em, workspaceId);
  return loaded?.version === version ? loaded : undefined;
}
