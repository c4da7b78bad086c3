import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../db/sql.js";
import { q, raw, type SqlFragment } from "../db/sql-fragment.js";
import type { ApiKeyAccess, ApiKeyScope } from "../modules/api-keys/api-key.entity.js";
import { AUTH_EPOCH_SQL, type Caller, refuseExpired, tokenHashOf, type WorkspaceAccess } from "./auth.js";
import { Unauthenticated } from "./problem.js";

/** The statements of authentication: the key and what it reaches, read in one round trip. */

/**
 * What every way of authenticating reads beside its credential, from `users u`: the person, the workspaces
 * they reach (the memberships `reach` allows) with their role in each, and the `auth_epoch` version.
 */
function personColumns(reach: SqlFragment): SqlFragment {
  return q`u.id as user_id, u.name, u.email,
            coalesce((select json_agg(json_build_object('id', w.id, 'slug', w.slug, 'name', w.name, 'role', m.role)
                                      order by w.created_at, w.id)
                        from memberships m join workspaces w on w.id = m.workspace_id
                       where m.user_id = u.id and ${reach}),
                     '[]'::json) as workspaces,
            ${raw(AUTH_EPOCH_SQL)} as epoch`;
}

interface PersonRow {
  user_id: string;
  name: string;
  email: string;
  workspaces: WorkspaceAccess[];
  epoch: string;
}

/** The caller's fields that {@link personColumns} read. */
function personOf(row: PersonRow): Pick<Caller, "userId" | "name" | "email" | "workspaces"> {
  return { userId: row.user_id, name: row.name, email: row.email, workspaces: row.workspaces };
}

/** Finds the key behind `Authorization: Bearer <token>`; an unknown, deleted or expired key is 401. */
export async function authenticate(em: EntityManager, authorization: string | undefined): Promise<Caller> {
  const { caller } = await authenticateHash(em, tokenHashOf(authorization));
  refuseExpired(caller);
  return caller;
}

/**
 * The caller whose key hashes to `tokenHash`, and the `auth_epoch` version read in the same statement: the
 * caller stays exactly this while a later statement still sees that version (`http/caller-cache.ts`).
 */
export async function authenticateHash(
  em: EntityManager,
  tokenHash: string,
): Promise<{ caller: Caller; epoch: string }> {
  const rows = await sql<
    PersonRow & {
      key_id: string;
      scope: ApiKeyScope;
      access: ApiKeyAccess;
      expires_ms: string | null;
      workspace_id: string | null;
      active_workspace_id: string | null;
      stale: boolean;
    }
  >(
    em,
    // One round trip for the key, its owner and the workspaces it reaches.
    q`select k.id as key_id, k.scope, k.access, (extract(epoch from k.expires_at) * 1000)::bigint::text as expires_ms, k.workspace_id, k.active_workspace_id,
            (k.last_used_at is null or k.last_used_at < now() - interval '1 minute') as stale,
            ${personColumns(raw("(k.workspace_id is null or w.id = k.workspace_id)"))}
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
      ...personOf(row),
      via: "key",
      keyId: row.key_id,
      keyScope: row.scope,
      access: row.access,
      expiresAt: row.expires_ms === null ? null : Number(row.expires_ms),
      keyWorkspaceId: row.workspace_id,
      activeWorkspaceId: row.active_workspace_id,
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

/** The access levels, widest last: a token's level is the widest of its scopes. */
const LEVELS: ApiKeyAccess[] = ["read", "write", "admin"];

/**
 * The caller behind an OAuth access token (`oauth/provider.ts`), found by the token's SHA-256 as the
 * OAuth store keeps it: the person and the one workspace the grant was made for (`<userId>:<workspaceId>`),
 * reached as a workspace key reaches its workspace; the access level is the widest of its scopes (none:
 * `read`); it expires with the token (401 `key_expired`). A token whose audience is not one of
 * `audiences` (the API and the configured tool servers) is 401: it was issued for something else.
 * Rate limits and idempotency keys count per grant (`keyId`, a UUID made from the grant id).
 */
export async function authenticateAccessToken(
  em: EntityManager,
  idHash: string,
  audiences: ReadonlySet<string>,
): Promise<{ caller: Caller; epoch: string }> {
  const rows = await sql<
    PersonRow & {
      key_id: string;
      scope: string | null;
      aud: string | string[] | null;
      workspace_id: string;
      expires_ms: string | null;
    }
  >(
    em,
    q`with t as (
        select md5(payload->>'grantId')::uuid as key_id, payload->>'scope' as scope, payload->'aud' as aud,
               split_part(payload->>'accountId', ':', 1) as user_id, split_part(payload->>'accountId', ':', 2) as workspace_id,
               (extract(epoch from expires_at) * 1000)::bigint::text as expires_ms
          from oauth_store where kind = 'AccessToken' and id_hash = ${idHash})
      select t.key_id, t.scope, t.aud, t.workspace_id, t.expires_ms, ${personColumns(raw("w.id::text = t.workspace_id"))}
        from t join users u on u.id::text = t.user_id`,
  );
  const row = rows[0];
  if (!row) throw new Unauthenticated("The access token is not valid: unknown, revoked or deleted.");
  const aud = Array.isArray(row.aud) ? row.aud : row.aud ? [row.aud] : [];
  if (!aud.some((a) => audiences.has(a)))
    throw new Unauthenticated("The access token was issued for another resource (its audience).");
  const scopes = new Set((row.scope ?? "").split(" "));
  const access = [...LEVELS].reverse().find((l) => scopes.has(l)) ?? "read";
  return {
    caller: {
      ...personOf(row),
      via: "key",
      keyId: row.key_id,
      keyScope: "workspace",
      access,
      expiresAt: row.expires_ms === null ? null : Number(row.expires_ms),
      keyWorkspaceId: row.workspace_id,
      activeWorkspaceId: row.workspace_id,
    },
    epoch: row.epoch,
  };
}

/**
 * The caller signed in with the session whose token hashes to `tokenHash` (`http/session.ts`): the person
 * with every workspace they are a member of, as an account key would reach them (a session of single
 * sign-on: its one workspace). An unknown, ended or expired session is 401.
 */
export async function authenticateSessionHash(
  em: EntityManager,
  tokenHash: string,
): Promise<{ caller: Caller; epoch: string }> {
  const rows = await sql<
    PersonRow & {
      session_id: string;
      active_workspace_id: string | null;
      sso_workspace_id: string | null;
      stale: boolean;
    }
  >(
    em,
    q`select s.id as session_id, s.active_workspace_id, s.sso_workspace_id,
             s.last_seen_at < now() - interval '1 minute' as stale,
             ${personColumns(raw("(s.sso_workspace_id is null or w.id = s.sso_workspace_id)"))}
       from sessions s join users u on u.id = s.user_id
      where s.token_hash = ${tokenHash} and s.expires_at > now()`,
    { prepare: "generic" },
  );
  const row = rows[0];
  if (!row) throw new Unauthenticated("The session has ended or expired: sign in again.");
  // When it was last seen (GET /auth/sessions), to the minute: at most one write a minute per session.
  if (row.stale) await sql(em, q`update sessions set last_seen_at = now() where id = ${row.session_id}`);
  return {
    caller: {
      ...personOf(row),
      via: "session",
      keyId: row.session_id,
      // A session of single sign-on reaches the one workspace whose provider vouched (modules/sso), as a
      // workspace key does.
      keyScope: row.sso_workspace_id ? "workspace" : "account",
      // A person signed in acts with their role in full; the access levels narrow keys and tokens.
      access: "admin",
      expiresAt: null,
      keyWorkspaceId: row.sso_workspace_id,
      activeWorkspaceId: row.sso_workspace_id ?? row.active_workspace_id,
    },
    epoch: row.epoch,
  };
}
