import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../../db/sql.js";
import { iso } from "../../db/sql-time.js";
import { notifyKeyDeleted } from "../../events/record-change.js";
import { hashToken, newToken } from "../../http/auth.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Forbidden, Invalid } from "../../http/problem.js";
import { findById } from "../shared/resolve.js";
import type { ApiKeyScope } from "./api-key.entity.js";

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
  const id = randomUUID();
  const token = newToken();
  await sql(
    em,
    `insert into api_keys (id, user_id, scope, workspace_id, active_workspace_id, name, token_hash, created_at)
     values (?, ?, ?, ?, ?, ?, ?, now())`,
    [
      id,
      userId,
      scope,
      scope === "workspace" ? workspaceId : null,
      scope === "account" ? workspaceId : null,
      name,
      hashToken(token),
    ],
  );
  return { id, name, scope, token };
}

/** The caller's own keys that reach this workspace: its workspace keys and all of its account keys. */
export async function listKeys(scope: WorkspaceScope) {
  const rows = await sql<{
    id: string;
    name: string;
    scope: ApiKeyScope;
    last_used_at: Date | null;
    created_at: Date;
  }>(
    scope.em,
    `select id, name, scope, last_used_at, created_at from api_keys
      where user_id = ? and (scope = 'account' or workspace_id = ?)
      order by created_at, id`,
    [scope.caller.userId, scope.workspace.id],
  );
  return rows.map((k) => ({
    id: k.id,
    name: k.name,
    scope: k.scope,
    lastUsedAt: iso(k.last_used_at),
    createdAt: iso(k.created_at)!,
  }));
}

export async function createKey(scope: WorkspaceScope, name: string, keyScope: ApiKeyScope) {
  if (!name.trim())
    throw new Invalid("A key needs a name.", [{ path: "body.name", message: "must not be empty" }]);
  if (keyScope === "account" && scope.caller.keyScope === "workspace") {
    // A key pinned to one workspace must not mint a key that reaches the owner's other workspaces.
    throw new Forbidden("forbidden", "A workspace key cannot create an account key; use an account key.");
  }
  return insertApiKey(scope.em, scope.caller.userId, name.trim(), keyScope, scope.workspace.id);
}

export async function deleteKey(scope: WorkspaceScope, id: string) {
  await scope.em.transactional(async (em) => {
    await findById(
      id,
      `No key ${id} of yours in this workspace.`,
      async (id) =>
        (
          await sql(
            em,
            `delete from api_keys where id = ? and user_id = ? and (scope = 'account' or workspace_id = ?) returning id`,
            [id, scope.caller.userId, scope.workspace.id],
          )
        )[0],
    );
    // On commit, every instance closes the event streams opened with this key.
    await notifyKeyDeleted(em, id);
  });
}
