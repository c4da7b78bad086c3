import { hash, randomBytes } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../db/sql.js";
import type { ApiKeyScope } from "../modules/api-keys/api-key.entity.js";
import type { MemberRole } from "../modules/workspaces/workspace.entity.js";
import { Forbidden, Invalid, Unauthenticated, WorkspaceRequired } from "./problem.js";

export interface Caller {
  userId: string;
  name: string;
  email: string;
  keyId: string;
  keyScope: ApiKeyScope;
  /** Set for workspace keys: the one workspace the key reaches. */
  keyWorkspaceId: string | null;
  activeWorkspaceId: string | null;
  /** The workspaces this key reaches and the owner's role in each, read with the key itself. */
  workspaces: WorkspaceAccess[];
}

export interface WorkspaceAccess {
  id: string;
  slug: string;
  name: string;
  role: MemberRole;
}

export const TOKEN_PREFIX = "trk_";

export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(24).toString("base64url");
}

export function hashToken(token: string): string {
  // One-shot: a third of the time of `createHash(...).update(...).digest(...)` on every request.
  return hash("sha256", token, "hex");
}

/** The SHA-256 of the key in `Authorization: Bearer <token>`; no key, or not one of ours, is 401. */
export function tokenHashOf(authorization: string | undefined): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) throw new Unauthenticated();
  const token = match[1]!;
  if (!token.startsWith(TOKEN_PREFIX)) throw new Unauthenticated("The API key is not valid.");
  return hashToken(token);
}

/** Finds the key behind `Authorization: Bearer <token>`; an unknown or deleted key is 401. */
export async function authenticate(em: EntityManager, authorization: string | undefined): Promise<Caller> {
  return (await authenticateHash(em, tokenHashOf(authorization))).caller;
}

/**
 * The caller whose key hashes to `tokenHash`, and the `auth_epoch` version read in the same statement: the
 * caller stays exactly this while a later statement still sees that version (`http/caller-cache.ts`).
 */
export async function authenticateHash(
  em: EntityManager,
  tokenHash: string,
): Promise<{ caller: Caller; epoch: string }> {
  const rows = await sql<{
    key_id: string;
    scope: ApiKeyScope;
    workspace_id: string | null;
    active_workspace_id: string | null;
    user_id: string;
    name: string;
    email: string;
    stale: boolean;
    workspaces: WorkspaceAccess[];
    epoch: string;
  }>(
    em,
    // One round trip for the key, its owner and the workspaces it reaches.
    `select k.id as key_id, k.scope, k.workspace_id, k.active_workspace_id, u.id as user_id, u.name, u.email,
            (k.last_used_at is null or k.last_used_at < now() - interval '1 minute') as stale,
            coalesce((select json_agg(json_build_object('id', w.id, 'slug', w.slug, 'name', w.name, 'role', m.role)
                                      order by w.created_at, w.id)
                        from memberships m join workspaces w on w.id = m.workspace_id
                       where m.user_id = u.id and (k.workspace_id is null or w.id = k.workspace_id)),
                     '[]'::json) as workspaces,
            ${AUTH_EPOCH_SQL} as epoch
       from api_keys k join users u on u.id = k.user_id
      where k.token_hash = ?`,
    [tokenHash],
    // Its best plan is the same for every key: planned once per session, on the pool of such statements.
    { prepare: "generic" },
  );
  const row = rows[0];
  if (!row) throw new Unauthenticated("The API key is not valid: unknown or deleted.");
  if (row.stale) {
    // At most one write a minute per key: lastUsedAt is informative, not worth a write on every request.
    await sql(em, "update api_keys set last_used_at = now() where id = ?", [row.key_id]);
  }
  return {
    caller: {
      userId: row.user_id,
      name: row.name,
      email: row.email,
      keyId: row.key_id,
      keyScope: row.scope,
      keyWorkspaceId: row.workspace_id,
      activeWorkspaceId: row.active_workspace_id,
      workspaces: row.workspaces,
    },
    epoch: row.epoch,
  };
}

/**
 * The current `auth_epoch` version, as text: a read whose operation confirms its caller in band selects it
 * in its own statement and hands it to {@link confirmCaller}.
 */
export const AUTH_EPOCH_SQL = "(select ae.version::text from auth_epoch ae where ae.id = 1)";

/**
 * A caller taken from the server's cache for this request, not read from the database: it holds only if a
 * statement of the request sees the version it was read at (`http/caller-cache.ts`).
 */
export interface CallerCheck {
  epoch: string;
  /** A statement of the request saw `epoch`: the caller is what authenticating in it would have given. */
  confirmed: boolean;
  /** A statement saw another version: the request is answered again with the key read afresh. */
  changed: boolean;
}

/**
 * Records the `auth_epoch` version (selected as {@link AUTH_EPOCH_SQL}) a statement of the request ran at.
 * Nothing to do when the caller was read for this request; `null` (a statement that returned no row) says
 * nothing.
 */
export function confirmCaller(scope: { callerCheck?: CallerCheck }, epoch: string | null | undefined): void {
  const check = scope.callerCheck;
  if (!check || epoch === null || epoch === undefined) return;
  if (epoch === check.epoch) check.confirmed = true;
  else check.changed = true;
}

/**
 * The workspaces the caller's key may reach, read afresh (inside a transaction, for example); the request's
 * own view, read at authentication, is `caller.workspaces`.
 */
export async function reachableWorkspaces(em: EntityManager, caller: Caller): Promise<WorkspaceAccess[]> {
  return sql<WorkspaceAccess>(
    em,
    `select w.id, w.slug, w.name, m.role
       from memberships m join workspaces w on w.id = m.workspace_id
      where m.user_id = ? ${caller.keyWorkspaceId ? "and w.id = ?" : ""}
      order by w.created_at, w.id`,
    caller.keyWorkspaceId ? [caller.userId, caller.keyWorkspaceId] : [caller.userId],
  );
}

function matches(ws: { id: string; slug: string; name: string }, ref: string): boolean {
  return ws.id === ref || ws.slug === ref.toLowerCase() || ws.name.toLowerCase() === ref.toLowerCase();
}

/**
 * The workspace `ref` (slug, name or id) names among those the caller's key reaches; anything else, existing
 * or not, is 403 `workspace_forbidden` (a pinned key's other workspaces included).
 */
export function reachableWorkspace(caller: Caller, ref: string): WorkspaceAccess {
  const ws = caller.workspaces.find((w) => matches(w, ref));
  if (ws) return ws;
  throw new Forbidden(
    "workspace_forbidden",
    caller.keyScope === "workspace"
      ? "This workspace key is pinned to its own workspace and reaches no other."
      : `You are not a member of a workspace named "${ref}".`,
  );
}

/**
 * Resolves the workspace a request acts in (openapi.yaml, "Authentication"):
 * header, then query parameter, then the key's active workspace, then the owner's only workspace.
 * Membership is checked on every call (the memberships are read with the key, or confirmed unchanged by the
 * request's own statement: `http/caller-cache.ts`), so losing access cuts a key off at once.
 */
export function resolveWorkspace(
  caller: Caller,
  headerRef: string | undefined,
  queryRef: string | undefined,
): WorkspaceAccess {
  const reachable = caller.workspaces;
  const pick = (ref: string) => reachable.find((w) => matches(w, ref));
  const named = headerRef || queryRef;
  if (headerRef && queryRef) {
    const a = pick(headerRef);
    const b = pick(queryRef);
    if ((a?.id ?? headerRef) !== (b?.id ?? queryRef)) {
      throw new Invalid(
        "The X-Service-Workspace header and the workspace query parameter name different workspaces; give one.",
      );
    }
  }
  if (named) return reachableWorkspace(caller, named);
  if (caller.keyScope === "workspace") {
    const ws = reachable[0];
    if (!ws)
      throw new Forbidden("workspace_forbidden", "The key's owner is no longer a member of its workspace.");
    return ws;
  }
  const active = caller.activeWorkspaceId
    ? reachable.find((w) => w.id === caller.activeWorkspaceId)
    : undefined;
  if (active) return active;
  if (reachable.length === 1) return reachable[0]!;
  if (reachable.length === 0)
    throw new Forbidden("workspace_forbidden", "You are not a member of any workspace.");
  throw new WorkspaceRequired(reachable.map(({ id, slug, name }) => ({ id, slug, name })));
}
