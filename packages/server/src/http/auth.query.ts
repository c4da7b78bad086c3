import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../db/sql.js";
import { q, raw } from "../db/sql-fragment.js";
import type { ApiKeyScope } from "../modules/api-keys/api-key.entity.js";
import { AUTH_EPOCH_SQL, type Caller, tokenHashOf, type WorkspaceAccess } from "./auth.js";
import { Unauthenticated } from "./problem.js";

/** The statements of authentication: the key and what it reaches, read in one round trip. */

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
    q`select k.id as key_id, k.scope, k.workspace_id, k.active_workspace_id, u.id as user_id, u.name, u.email,
            (k.last_used_at is null or k.last_used_at < now() - interval '1 minute') as stale,
            coalesce((select json_agg(json_build_object('id', w.id, 'slug', w.slug, 'name', w.name, 'role', m.role)
                                      order by w.created_at, w.id)
                        from memberships m join workspaces w on w.id = m.workspace_id
                       where m.user_id = u.id and (k.workspace_id is null or w.id = k.workspace_id)),
                     '[]'::json) as workspaces,
            ${raw(AUTH_EPOCH_SQL)} as epoch
       from api_keys k join users u on u.id = k.user_id
      where k.token_hash = ${tokenHash}`,
    // Its best plan is the same for every key: planned once per session, on the pool of such statements.
    { prepare: "generic" },
  );
  const row = rows[0];
  if (!row) throw new Unauthenticated("The API key is not valid: unknown or deleted.");
  if (row.stale) {
    // At most one write a minute per key: lastUsedAt is informative, not worth a write on every request.
    await sql(em, q`update api_keys set last_used_at = now() where id = ${row.key_id}`);
  }
  return {
    caller: {
      userId: row.user_id,
      name: row.name,
      email: row.email,
      via: "key",
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
 * The workspaces the caller's key may reach, read afresh (inside a transaction, for example); the request's
 * own view, read at authentication, is `caller.workspaces`.
 */
export async function reachableWorkspaces(em: EntityManager, caller: Caller): Promise<WorkspaceAccess[]> {
  return sql<WorkspaceAccess>(
    em,
    q`select w.id, w.slug, w.name, m.role
       from memberships m join workspaces w on w.id = m.workspace_id
      where m.user_id = ${caller.userId} ${caller.keyWorkspaceId ? q`and w.id = ${caller.keyWorkspaceId}` : raw("")}
      order by w.created_at, w.id`,
  );
}

/**
 * The caller signed in with the session whose token hashes to `tokenHash` (`http/session.ts`): the person
 * with every workspace they are a member of, as an account key would reach them. An unknown, ended or
 * expired session is 401.
 */
export async function authenticateSessionHash(
  em: EntityManager,
  tokenHash: string,
): Promise<{ caller: Caller; epoch: string }> {
  const rows = await sql<{
    session_id: string;
    active_workspace_id: string | null;
    user_id: string;
    name: string;
    email: string;
    workspaces: WorkspaceAccess[];
    epoch: string;
  }>(
    em,
    q`select s.id as session_id, s.active_workspace_id, u.id as user_id, u.name, u.email,
            coalesce((select json_agg(json_build_object('id', w.id, 'slug', w.slug, 'name', w.name, 'role', m.role)
                                      order by w.created_at, w.id)
                        from memberships m join workspaces w on w.id = m.workspace_id
                       where m.user_id = u.id),
                     '[]'::json) as workspaces,
            ${raw(AUTH_EPOCH_SQL)} as epoch
       from sessions s join users u on u.id = s.user_id
      where s.token_hash = ${tokenHash} and s.expires_at > now()`,
    { prepare: "generic" },
  );
  const row = rows[0];
  if (!row) throw new Unauthenticated("The session has ended or expired: sign in again.");
  return {
    caller: {
      userId: row.user_id,
      name: row.name,
      email: row.email,
      via: "session",
      keyId: row.session_id,
      keyScope: "account",
      keyWorkspaceId: null,
      activeWorkspaceId: row.active_workspace_id,
      workspaces: row.workspaces,
    },
    epoch: row.epoch,
  };
}
