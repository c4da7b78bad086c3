import { handle, inWorkspace, OK } from "../../http/handler.js";
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

  handle("updateWorkspace", async (s, { body }) => {
    const scope = inWorkspace(s);
    await workspaces.renameWorkspace(scope.em, scope.workspace.id, body.name);
    return { status: 200, body: OK };
  }),
];
