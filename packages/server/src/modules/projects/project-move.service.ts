import type { WorkspaceAccess } from "../../http/auth.js";
import { reachableWorkspaces } from "../../http/auth.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Forbidden, fieldPath, Invalid } from "../../http/problem.js";
import { authorize } from "../../rules/permissions.js";
import { resolveTeam } from "../shared/resolve.query.js";
import { findProject } from "./project.query.js";
import { moveProjectToWorkspace, rehomeProject, resolveTargetTeam } from "./project-move.query.js";

type ProjectMoveRequest = { workspace?: string; team?: string };

/**
 * The target workspace of a move, among those the caller's key reaches: one they do not belong to (or a
 * workspace key's other workspaces) is 403 `workspace_forbidden`; one they are not admin of is 403
 * `admin_required`.
 */
export async function resolveTargetWorkspace(scope: WorkspaceScope, ref: string): Promise<WorkspaceAccess> {
  const reachable = await reachableWorkspaces(scope.em, scope.caller);
  const lower = ref.toLowerCase();
  const target = reachable.find((w) => w.id === ref || w.slug === lower || w.name.toLowerCase() === lower);
  if (!target)
    throw new Forbidden("workspace_forbidden", `You are not a member of a workspace named "${ref}".`);
  authorize({ caller: scope.caller, workspace: target }, "workspace.moveInto");
  return target;
}

/** `POST /projects/{id}/move`: admin only; all or nothing in one transaction. */
export async function moveProject(
  scope: WorkspaceScope,
  ref: string,
  body: ProjectMoveRequest,
): Promise<Record<string, unknown>> {
  const project = await findProject(scope, ref);
  let target: WorkspaceAccess | undefined;
  if (body.workspace !== undefined) {
    target = await resolveTargetWorkspace(scope, body.workspace);
    if (target.id === scope.workspace.id) target = undefined;
    else if (body.team === undefined) {
      throw new Invalid("A move to another workspace needs the team that receives the issues.", [
        { path: fieldPath("body", "team"), message: "required with workspace" },
      ]);
    }
  }
  if (body.team === undefined) return {};
  const teamRef = body.team;
  return scope.em.transactional(async (em) => {
    if (target) {
      const team = await resolveTargetTeam(scope, em, target, teamRef);
      return {
        ...(await moveProjectToWorkspace(em, {
          projectId: project.id,
          source: scope.workspace,
          target,
          team,
          actorId: scope.caller.userId,
        })),
      };
    }
    const team = await resolveTeam({ ...scope, em }, teamRef);
    return rehomeProject(scope, em, project.id, { id: team.id, key: team.key, name: team.name });
  });
}
