import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../../db/sql.js";
import { q } from "../../db/sql-fragment.js";
import { iso } from "../../db/sql-time.js";
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

/** The contract's `BrowserSession`: a person's live sessions, most recently seen first. */
export async function listSessions(em: EntityManager, userId: string, currentId: string | null) {
  const rows = await sql<{
    id: string;
    user_agent: string | null;
    created_at: Date;
    last_seen_at: Date;
    expires_at: Date;
    sso: boolean;
  }>(
    em,
    q`select id, user_agent, created_at, last_seen_at, expires_at, sso_workspace_id is not null as sso
        from sessions
       where user_id = ${userId} and expires_at > now()
       order by last_seen_at desc, created_at desc, id`,
  );
  return rows.map((r) => ({
    id: r.id,
    userAgent: r.user_agent,
    createdAt: iso(r.created_at)!,
    lastSeenAt: iso(r.last_seen_at)!,
    expiresAt: iso(r.expires_at)!,
    current: r.id === currentId,
    singleSignOn: r.sso,
  }));
}
