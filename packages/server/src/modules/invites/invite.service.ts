import { randomBytes, randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { sql, sqlOne } from "../../db/sql.js";
import { iso } from "../../db/sql-time.js";
import { recordChanges } from "../../events/record-change.js";
import { hashToken, requireAdmin } from "../../http/auth.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, Gone, Invalid, NotFound } from "../../http/problem.js";
import { insertApiKey } from "../api-keys/api-key.service.js";
import { findById } from "../shared/resolve.js";
import { findOrCreateUser } from "../users/user.service.js";
import type { MemberRole } from "../workspaces/workspace.entity.js";
import { addMember } from "../workspaces/workspace.service.js";

export const INVITE_TTL_DAYS = 7;

export async function listInvites(scope: WorkspaceScope) {
  const rows = await sql<{ id: string; email: string; role: MemberRole; expires_at: Date }>(
    scope.em,
    `select id, email, role, expires_at from invites
      where workspace_id = ? and accepted_at is null order by created_at, id`,
    [scope.workspace.id],
  );
  return rows.map((r) => ({ id: r.id, email: r.email, role: r.role, expiresAt: iso(r.expires_at)! }));
}

export async function createInvite(scope: WorkspaceScope, email: string, role: MemberRole) {
  requireAdmin(scope.workspace, "invite people");
  const address = email.trim().toLowerCase();
  const member = await sqlOne(
    scope.em,
    "select 1 from memberships m join users u on u.id = m.user_id where m.workspace_id = ? and u.email = ?",
    [scope.workspace.id, address],
  );
  if (member) throw new Conflict("conflict", `${address} is already a member of this workspace.`);
  const id = randomUUID();
  const token = `inv_${randomBytes(24).toString("base64url")}`;
  // A new invite replaces a pending one for the same address: only the newest link works.
  await scope.em.transactional(async (em) => {
    const replaced = await sql<{ id: string }>(
      em,
      "delete from invites where workspace_id = ? and email = ? and accepted_at is null returning id",
      [scope.workspace.id, address],
    );
    await sql(
      em,
      `insert into invites (id, workspace_id, email, role, token_hash, invited_by_id, expires_at, created_at)
       values (?, ?, ?, ?, ?, ?, now() + make_interval(days => ?), now())`,
      [id, scope.workspace.id, address, role, hashToken(token), scope.caller.userId, INVITE_TTL_DAYS],
    );
    await recordChanges(em, scope.workspace.id, [
      ...replaced.map((r) => ({ entity: "invite" as const, action: "deleted" as const, id: r.id })),
      { entity: "invite", action: "created", id },
    ]);
  });
  return { id, email: address, role, url: `${scope.config.publicUrl.replace(/\/$/, "")}/invite/${token}` };
}

export async function deleteInvite(scope: WorkspaceScope, id: string) {
  requireAdmin(scope.workspace, "revoke invites");
  await scope.em.transactional(async (em) => {
    await findById(
      id,
      `No invite ${id} in this workspace.`,
      async (id) =>
        (
          await sql(em, "delete from invites where id = ? and workspace_id = ? returning id", [
            id,
            scope.workspace.id,
          ])
        )[0],
    );
    await recordChanges(em, scope.workspace.id, [{ entity: "invite", action: "deleted", id }]);
  });
}

/** The token is the last path segment of the invite link; the whole link is accepted too. */
function tokenFrom(input: string): string {
  const trimmed = input.trim();
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/**
 * Accepts an invite: creates the user (or adds an existing one), makes them a member with the invited role,
 * and returns a new account key. The invite row is locked, so a link cannot be used twice.
 */
export async function acceptInvite(em: EntityManager, tokenInput: string, name: string | undefined) {
  return em.transactional(async (tem) => {
    const invite = await sqlOne<{
      id: string;
      workspace_id: string;
      email: string;
      role: MemberRole;
      expired: boolean;
      accepted_at: Date | null;
    }>(
      tem,
      `select id, workspace_id, email, role, expires_at <= now() as expired, accepted_at
         from invites where token_hash = ? for update`,
      [hashToken(tokenFrom(tokenInput))],
    );
    if (!invite) throw new NotFound("No invite with that token.");
    if (invite.accepted_at) throw new Conflict("invite_used", "This invite has already been used.");
    if (invite.expired)
      throw new Gone("invite_expired", "This invite has expired: ask an admin for a new one.");
    const user = await findOrCreateUser(tem, invite.email, name);
    if (!user) {
      throw new Invalid("Give your name to create your account.", [
        { path: "body.name", message: "is required for a new account" },
      ]);
    }
    const already = await sqlOne(tem, "select 1 from memberships where workspace_id = ? and user_id = ?", [
      invite.workspace_id,
      user.id,
    ]);
    if (already) throw new Conflict("invite_used", `${invite.email} is already a member of this workspace.`);
    await addMember(tem, invite.workspace_id, user.id, invite.role);
    await sql(tem, "update invites set accepted_at = now() where id = ?", [invite.id]);
    // A used invite leaves the pending list; the new member joins the member list.
    await recordChanges(tem, invite.workspace_id, [
      { entity: "invite", action: "deleted", id: invite.id },
      { entity: "member", action: "created", id: user.id },
    ]);
    const ws = (await sqlOne<{ id: string; name: string; slug: string }>(
      tem,
      "select id, name, slug from workspaces where id = ?",
      [invite.workspace_id],
    ))!;
    const apiKey = await insertApiKey(tem, user.id, "invite", "account", ws.id);
    return { workspace: ws, user: { id: user.id, name: user.name, email: user.email }, apiKey };
  });
}
