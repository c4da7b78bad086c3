import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import { recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict } from "../../http/problem.js";
import { authorize, leavesNoAdmin } from "../../rules/permissions.js";
import { ApiKey } from "../api-keys/api-key.entity.js";
import { findById } from "../shared/resolve.query.js";
import { TeamMember } from "../teams/team.entity.js";
import { type MemberRole, Membership } from "../workspaces/workspace.entity.js";

/**
 * Locks the workspace's admin rows, so two concurrent demotions cannot both see "another admin is left".
 * Returns the number of admins.
 */
async function lockAdmins(em: EntityManager, workspaceId: string): Promise<number> {
  const admins = await em.find(
    Membership,
    { workspace: workspaceId, role: "admin" },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  return admins.length;
}

/** The member's membership, locked for the change. */
function membership(em: EntityManager, workspaceId: string, userId: string) {
  return findById(userId, `No member ${userId} in this workspace.`, (id) =>
    em.findOne(Membership, { workspace: workspaceId, user: id }, { lockMode: LockMode.PESSIMISTIC_WRITE }),
  );
}

export async function changeRole(scope: WorkspaceScope, userId: string, role: MemberRole) {
  await scope.em.transactional(async (em) => {
    const admins = await lockAdmins(em, scope.workspace.id);
    const target = await membership(em, scope.workspace.id, userId);
    if (leavesNoAdmin(target.role, role, admins)) {
      throw new Conflict("last_admin", "This is the workspace's last admin: make someone else admin first.");
    }
    em.assign(target, { role });
    await em.flush();
    // Also tells open event streams to re-read what this member may see.
    await recordChanges(em, scope.workspace.id, [{ entity: "member", action: "updated", id: userId }]);
  });
}

/**
 * Removes a member and everything that let them in: their team access, their keys pinned to this
 * workspace, and any account key's session pointing here. Membership is checked on every request, so
 * their account keys are cut off here at once.
 */
export async function removeMember(scope: WorkspaceScope, userId: string) {
  authorize(scope, "member.remove", { userId });
  await scope.em.transactional(async (em) => {
    const admins = await lockAdmins(em, scope.workspace.id);
    const target = await membership(em, scope.workspace.id, userId);
    if (leavesNoAdmin(target.role, null, admins)) {
      throw new Conflict("last_admin", "This is the workspace's last admin: make someone else admin first.");
    }
    const ws = scope.workspace.id;
    await em.nativeDelete(Membership, target.id);
    await em.nativeDelete(TeamMember, { user: userId, team: { workspace: ws } });
    await em.nativeDelete(ApiKey, { user: userId, workspace: ws });
    await em.nativeUpdate(ApiKey, { user: userId, activeWorkspace: ws }, { activeWorkspace: null });
    // Also cuts the member's open event streams off.
    await recordChanges(em, ws, [{ entity: "member", action: "deleted", id: userId }]);
  });
}
