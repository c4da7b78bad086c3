import { hash, randomBytes } from "node:crypto";
import type { ApiKeyScope } from "../modules/api-keys/api-key.entity.js";
import type { MemberRole } from "../modules/workspaces/workspace.entity.js";
import { Unauthenticated } from "./problem.js";

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
