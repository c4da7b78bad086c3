import { sql } from "../../db/sql.js";
import { q } from "../../db/sql-fragment.js";
import type { WorkspaceScope } from "../../http/handler.js";
import type { MemberRole } from "../workspaces/workspace.entity.js";

type UserKind = "person" | "agent";

/** The workspace's members, by name, with their role; `isMe` marks the caller. */
export async function listUsers(scope: WorkspaceScope, userId?: string) {
  const one = userId === undefined ? q`` : q` and u.id = ${userId}`;
  const rows = await sql<{ id: string; name: string; email: string; role: MemberRole; kind: UserKind }>(
    scope.em,
    q`select u.id, u.name, u.email, m.role, u.kind
       from memberships m join users u on u.id = m.user_id
      where m.workspace_id = ${scope.workspace.id}${one}
      order by lower(u.name), u.id`,
  );
  return rows.map((u) => ({ ...u, isMe: u.id === scope.caller.userId }));
}
