import { randomBytes } from "node:crypto";
import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import { iso } from "../../db/sql-time.js";
import { recordChanges } from "../../events/record-change.query.js";
import { hashToken } from "../../http/auth.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, fieldPath, Gone, Invalid, NotFound } from "../../http/problem.js";
import { insertApiKey } from "../api-keys/api-key.service.js";
import { findById } from "../shared/resolve.query.js";
import { checkPassword, hashPassword } from "../users/password.js";
import { User } from "../users/user.entity.js";
import { findOrCreateUser } from "../users/user.service.js";
import { type MemberRole, Membership, Workspace } from "../workspaces/workspace.entity.js";
import { addMember } from "../workspaces/workspace.service.js";
import { Invite } from "./invite.entity.js";

export const INVITE_TTL_DAYS = 7;

export async function listInvites(scope: WorkspaceScope) {
  const invites = await scope.em.find(
    Invite,
    { workspace: scope.workspace.id, acceptedAt: null },
    { orderBy: { createdAt: "asc", id: "asc" } },
  );
  return invites.map((r) => ({ id: r.id, email: r.email, role: r.role, expiresAt: iso(r.expiresAt)! }));
}

export async function createInvite(scope: WorkspaceScope, email: string, role: MemberRole) {
  const address = email.trim().toLowerCase();
  const member = await scope.em.count(Membership, {
    workspace: scope.workspace.id,
    user: { email: address },
  });
  if (member > 0) throw new Conflict("conflict", `${address} is already a member of this workspace.`);
  const token = `inv_${randomBytes(24).toString("base64url")}`;
  // A new invite replaces a pending one for the same address: only the newest link works.
  const id = await scope.em.transactional(async (em) => {
    const replaced = await em.find(
      Invite,
      { workspace: scope.workspace.id, email: address, acceptedAt: null },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (replaced.length) await em.nativeDelete(Invite, { id: { $in: replaced.map((r) => r.id) } });
    const now = new Date();
    const invite = em.create(Invite, {
      workspace: scope.workspace.id,
      email: address,
      role,
      tokenHash: hashToken(token),
      invitedBy: scope.caller.userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITE_TTL_DAYS * 24 * 3600 * 1000),
    });
    await em.flush();
    await recordChanges(em, scope.workspace.id, [
      ...replaced.map((r) => ({ entity: "invite" as const, action: "deleted" as const, id: r.id })),
      { entity: "invite", action: "created", id: invite.id },
    ]);
    return invite.id;
  });
  return { id, email: address, role, url: `${scope.config.publicUrl.replace(/\/$/, "")}/invite/${token}` };
}

export async function deleteInvite(scope: WorkspaceScope, id: string) {
  await scope.em.transactional(async (em) => {
    await findById(
      id,
      `No invite ${id} in this workspace.`,
      async (id) => (await em.nativeDelete(Invite, { id, workspace: scope.workspace.id })) || undefined,
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
export async function acceptInvite(
  em: EntityManager,
  tokenInput: string,
  name: string | undefined,
  password?: string,
) {
  // Hashed before the transaction: Argon2 takes tens of milliseconds that no row lock should wait on.
  const passwordHash = password === undefined ? undefined : await hashPassword(checkPassword(password));
  return em.transactional(async (tem) => {
    const invite = await tem.findOne(
      Invite,
      { tokenHash: hashToken(tokenFrom(tokenInput)) },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!invite) throw new NotFound("No invite with that token.");
    if (invite.acceptedAt) throw new Conflict("invite_used", "This invite has already been used.");
    if (invite.expiresAt <= new Date())
      throw new Gone("invite_expired", "This invite has expired: ask an admin for a new one.");
    const workspaceId = invite.workspace.id;
    const user = await findOrCreateUser(tem, invite.email, name);
    if (!user) {
      throw new Invalid("Give your name to create your account.", [
        { path: fieldPath("body", "name"), message: "is required for a new account" },
      ]);
    }
    const already = await tem.count(Membership, { workspace: workspaceId, user: user.id });
    if (already > 0)
      throw new Conflict("invite_used", `${invite.email} is already a member of this workspace.`);
    // A placeholder an import held for this email becomes the person (openapi.yaml, `acceptInvite`):
    // the imported issues and comments are already theirs; it takes the name given.
    const claimed = await tem.nativeUpdate(
      User,
      { id: user.id, placeholder: true },
      { placeholder: false, ...(name?.trim() ? { name: name.trim() } : {}) },
    );
    if (claimed > 0 && name?.trim()) user.name = name.trim();
    await addMember(tem, workspaceId, user.id, invite.role);
    // A first password only: one already set is changed by a reset link, not by whoever holds an invite.
    if (passwordHash) await tem.nativeUpdate(User, { id: user.id, passwordHash: null }, { passwordHash });
    invite.acceptedAt = new Date();
    await tem.flush();
    // A used invite leaves the pending list; the new member joins the member list.
    await recordChanges(tem, workspaceId, [
      { entity: "invite", action: "deleted", id: invite.id },
      { entity: "member", action: "created", id: user.id },
    ]);
    const ws = await tem.findOneOrFail(Workspace, workspaceId, { fields: ["id", "name", "slug"] });
    const apiKey = await insertApiKey(tem, user.id, "invite", "account", ws.id);
    return {
      workspace: { id: ws.id, name: ws.name, slug: ws.slug },
      user: { id: user.id, name: user.name, email: user.email },
      apiKey,
    };
  });
}
