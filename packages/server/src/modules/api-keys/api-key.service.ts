import type { EntityManager, FilterQuery } from "@mikro-orm/postgresql";
import { iso } from "../../db/sql-time.js";
import { notifyKeyDeleted } from "../../events/record-change.query.js";
import { hashToken, newToken } from "../../http/auth.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { fieldPath, Invalid } from "../../http/problem.js";
import { findById } from "../shared/resolve.query.js";
import { ApiKey, type ApiKeyAccess, type ApiKeyScope, type IApiKey } from "./api-key.entity.js";

export interface CreatedKey {
  id: string;
  name: string;
  scope: ApiKeyScope;
  access: ApiKeyAccess;
  expiresAt: string | null;
  token: string;
}

/** What a new key may do and until when: full access, for ever, unless said. */
export interface KeyLimits {
  access?: ApiKeyAccess;
  expiresAt?: Date | null;
}

/** Stores a new key's hash and returns the token, which is never shown again. */
export async function insertApiKey(
  em: EntityManager,
  userId: string,
  name: string,
  scope: ApiKeyScope,
  workspaceId: string,
  limits: KeyLimits = {},
): Promise<CreatedKey> {
  const token = newToken();
  const access = limits.access ?? "admin";
  const expiresAt = limits.expiresAt ?? null;
  const key = em.create(ApiKey, {
    user: userId,
    scope,
    access,
    expiresAt,
    workspace: scope === "workspace" ? workspaceId : null,
    activeWorkspace: scope === "account" ? workspaceId : null,
    name,
    tokenHash: hashToken(token),
  });
  await em.flush();
  return { id: key.id, name, scope, access, expiresAt: iso(expiresAt), token };
}

/** The caller's own keys that reach this workspace: its workspace keys and all of its account keys. */
function reachingWorkspace(scope: WorkspaceScope) {
  return {
    user: scope.caller.userId,
    $or: [{ scope: "account" }, { workspace: scope.workspace.id }],
  } satisfies FilterQuery<IApiKey>;
}

export async function listKeys(scope: WorkspaceScope) {
  const keys = await scope.em.find(ApiKey, reachingWorkspace(scope), {
    orderBy: { createdAt: "asc", id: "asc" },
  });
  return keys.map((k) => ({
    id: k.id,
    name: k.name,
    scope: k.scope,
    access: k.access,
    expiresAt: iso(k.expiresAt),
    lastUsedAt: iso(k.lastUsedAt),
    createdAt: iso(k.createdAt)!,
  }));
}

/**
 * A new key of the caller's. Its access level needs no check here: making a key needs `admin` access
 * (`rules/permissions.ts`), the widest. Its expiry does: a key that expires makes only keys that expire
 * no later, so no key outlives the one that made it.
 */
export async function createKey(
  scope: WorkspaceScope,
  name: string,
  keyScope: ApiKeyScope,
  limits: { access?: ApiKeyAccess; expiresAt?: string },
) {
  if (!name.trim())
    throw new Invalid("A key needs a name.", [
      { path: fieldPath("body", "name"), message: "must not be empty" },
    ]);
  const expiresAt = limits.expiresAt === undefined ? null : new Date(limits.expiresAt);
  const callerExpiry = scope.caller.expiresAt;
  const expiryPath = fieldPath("body", "expiresAt");
  if (expiresAt && expiresAt.getTime() <= Date.now())
    throw new Invalid("A key cannot expire in the past.", [
      { path: expiryPath, message: "must be in the future" },
    ]);
  if (callerExpiry !== null && (!expiresAt || expiresAt.getTime() > callerExpiry))
    throw new Invalid("The key you call with expires; a key it makes must expire no later.", [
      { path: expiryPath, message: `must be at most ${new Date(callerExpiry).toISOString()}` },
    ]);
  return insertApiKey(scope.em, scope.caller.userId, name.trim(), keyScope, scope.workspace.id, {
    access: limits.access ?? "admin",
    expiresAt,
  });
}

export async function deleteKey(scope: WorkspaceScope, id: string) {
  await scope.em.transactional(async (em) => {
    await findById(
      id,
      `No key ${id} of yours in this workspace.`,
      async (id) => (await em.nativeDelete(ApiKey, { id, ...reachingWorkspace(scope) })) || undefined,
    );
    // On commit, every instance closes the event streams opened with this key.
    await notifyKeyDeleted(em, id);
  });
}
