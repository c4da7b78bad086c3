import type { EntityManager, FilterQuery } from "@mikro-orm/postgresql";
import { iso } from "../../db/sql-time.js";
import { notifyKeyDeleted } from "../../events/record-change.query.js";
import { hashToken, newToken } from "../../http/auth.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { fieldPath, Invalid } from "../../http/problem.js";
import { findById } from "../shared/resolve.query.js";
import { ApiKey, type ApiKeyScope, type IApiKey } from "./api-key.entity.js";

export interface CreatedKey {
  id: string;
  name: string;
  scope: ApiKeyScope;
  token: string;
}

/** Stores a new key's hash and returns the token, which is never shown again. */
export async function insertApiKey(
  em: EntityManager,
  userId: string,
  name: string,
  scope: ApiKeyScope,
  workspaceId: string,
): Promise<CreatedKey> {
  const token = newToken();
  const key = em.create(ApiKey, {
    user: userId,
    scope,
    workspace: scope === "workspace" ? workspaceId : null,
    activeWorkspace: scope === "account" ? workspaceId : null,
    name,
    tokenHash: hashToken(token),
  });
  await em.flush();
  return { id: key.id, name, scope, token };
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
    lastUsedAt: iso(k.lastUsedAt),
    createdAt: iso(k.createdAt)!,
  }));
}

export async function createKey(scope: WorkspaceScope, name: string, keyScope: ApiKeyScope) {
  if (!name.trim())
    throw new Invalid("A key needs a name.", [
      { path: fieldPath("body", "name"), message: "must not be empty" },
    ]);
  return insertApiKey(scope.em, scope.caller.userId, name.trim(), keyScope, scope.workspace.id);
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
