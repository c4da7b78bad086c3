import { handle, inWorkspace, OK } from "../../http/handler.js";
import * as codehost from "./codehost.service.js";

export const codehostHandlers = [
  handle("getCodehost", async (scope) => ({
    status: 200,
    body: await codehost.getCodehost(inWorkspace(scope)),
  })),

  handle("connectCodehost", async (scope, { body }) => ({
    status: 200,
    body: await codehost.connectCodehost(inWorkspace(scope), body),
  })),

  handle("disconnectCodehost", async (scope) => {
    await codehost.disconnectCodehost(inWorkspace(scope));
    return { status: 200, body: OK };
  }),

  handle("receiveGithubDelivery", async (scope, { params, body }) => ({
    status: 200,
    body: await codehost.receiveGithubDelivery(scope, params.workspaceId, body),
  })),
];
