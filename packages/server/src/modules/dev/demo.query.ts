import type { EntityManager } from "@mikro-orm/postgresql";
import { sqlOne } from "../../db/sql.js";
import { q } from "../../db/sql-fragment.js";
import type { MemberRole } from "../workspaces/workspace.entity.js";

/** The statements of the demo workspace: the first development start, and `POST /dev/reseed`. */

/** Whether the database holds any workspace yet. */
export async function anyWorkspace(em: EntityManager): Promise<boolean> {
  return (await sqlOne(em, q`select 1 from workspaces limit 1`)) !== undefined;
}

/** Whether a key with this hash is still there. */
export async function keyExists(em: EntityManager, tokenHash: string): Promise<boolean> {
  return (await sqlOne(em, q`select 1 from api_keys where token_hash = ${tokenHash}`)) !== undefined;
}

/** The workspace with the slug `demo`, if any, and the user's role in it (null when not a member). */
export function demoWorkspace(em: EntityManager, userId: string) {
  return sqlOne<{ id: string; role: MemberRole | null }>(
    em,
    q`select w.id, m.role from workspaces w
       left join memberships m on m.workspace_id = w.id and m.user_id = ${userId}
      where w.slug = 'demo'`,
  );
}

/** Deletes a workspace with everything in it (the foreign keys cascade). */
export async function deleteWorkspace(em: EntityManager, workspaceId: string): Promise<void> {
  await sqlOne(em, q`delete from workspaces where id = ${workspaceId}`);
}
