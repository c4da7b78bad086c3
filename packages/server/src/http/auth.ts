import { hash, randomBytes } from "node:crypto";
import type { ApiKeyAccess, ApiKeyScope } from "../modules/api-keys/api-key.entity.js";
import type { MemberRole } from "../modules/workspaces/workspace.entity.js";
import { KeyExpired, Unauthenticated } from "./problem.js";

/**
 * The caller: who a request's key belongs to, what the key reaches, and the token it is sent as. Read by
 * the `authenticate` step (`authenticate.ts`, statements in `auth.query.ts`), confirmed in band by the
 * reads that take it from the cache (`caller-cache.ts`).
 */

export interface Caller {
  userId: string;
  name: string;
  email: string;
  /** How the caller proved who they are: an API key, or a browser's session cookie (`http/session.ts`). */
  via: "key" | "session";
  /** The key's id, or the session's: what rate limits, idempotent answers and event streams are kept by. */
  keyId: string;
  keyScope: ApiKeyScope;
  /** What the key (or OAuth access token) may do within its owner's role: `rules/permissions.ts`. */
  access: ApiKeyAccess;
  /** When the key stops working, in epoch milliseconds; null: never. */
  expiresAt: number | null;
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

/**
 * What `Authorization: Bearer <token>` holds, by its SHA-256: an API key (`trk_…`) or an OAuth access
 * token (opaque, issued by `oauth/provider.ts`). No bearer token is 401. Either is found by its hash in
 * an index, never compared as text, so no comparison's timing tells a secret.
 */
export function bearerOf(authorization: string | undefined): { kind: "key" | "oauth"; hash: string } {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) throw new Unauthenticated();
  const token = match[1]!;
  if (token.startsWith(TOKEN_PREFIX)) return { kind: "key", hash: hashToken(token) };
  if (!/^[A-Za-z0-9_-]{20,200}$/.test(token)) throw new Unauthenticated("The API key is not valid.");
  // Hashed apart from keys: the cache of callers holds both, and no key can hash as a token does.
  return { kind: "oauth", hash: hashToken(token) };
}

/** The SHA-256 of the API key in `Authorization`; anything else is 401. */
export function tokenHashOf(authorization: string | undefined): string {
  const bearer = bearerOf(authorization);
  if (bearer.kind !== "key") throw new Unauthenticated("The API key is not valid.");
  return bearer.hash;
}

/**
 * 401 `key_expired` once the caller's key has passed its expiry: asked of every caller, cached or read
 * afresh, since time alone expires a key and no change bumps `auth_epoch` for it.
 */
export function refuseExpired(caller: Caller, now = Date.now()): void {
  if (caller.expiresAt !== null && caller.expiresAt <= now) throw new KeyExpired();
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
