import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../../db/sql.js";
import { q } from "../../db/sql-fragment.js";
import type { MemberRole } from "../workspaces/workspace.entity.js";

/** The contract's `SessionInfo`: the person, how they called, and their workspaces with their roles. */
export async function sessionInfo(
  em: EntityManager,
  user: { id: string; name: string; email: string },
  via: "session" | "key",
  expiresAt: Date | null,
) {
  const workspaces = await sql<{ id: string; name: string; slug: string; role: MemberRole }>(
    em,
    q`select w.id, w.name, w.slug, m.role
        from memberships m join workspaces w on w.id = m.workspace_id
       where m.user_id = ${user.id}
       order by w.created_at, w.id`,
  );
  return { user, via, expiresAt: expiresAt ? expiresAt.toISOString() : null, workspaces };
}
