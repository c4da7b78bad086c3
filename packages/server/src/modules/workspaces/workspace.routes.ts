import { handle, inWorkspace } from "../../http/handler.js";
import * as workspaces from "./workspace.service.js";

export const workspaceHandlers = [
  handle("listWorkspaces", async (scope) => ({
    status: 200,
    body: { workspaces: workspaces.listWorkspaces(scope.caller!) },
  })),

  handle("createWorkspace", async (scope, { body }) => ({
    status: 201,
    body: { workspace: await workspaces.createWorkspace(scope.em, scope.caller!, body.name, body.slug) },
  })),

  handle("setActiveWorkspace", async (scope, { body }) => ({
    status: 200,
    body: { workspace: await workspaces.setActiveWorkspace(scope.em, scope.caller!, body.workspace) },
  })),

  // The contract's updateWorkspace answers `{ok}`, as the service's API names it, with the workspace
  // beside it as listWorkspaces shows it, renamed.
  handle("updateWorkspace", async (s, { body }) => {
    const scope = inWorkspace(s);
    const { id, name } = scope.workspace;
    const renamed = await workspaces.renameWorkspace(scope.em, id, body.name, name);
    const listed = workspaces.listWorkspaces(scope.caller).find((w) => w.id === id)!;
    return { status: 200, body: { ok: true as const, workspace: { ...listed, name: renamed } } };
  }),
];
