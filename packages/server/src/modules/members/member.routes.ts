import { requireAdmin } from "../../http/auth.js";
import { handle, inWorkspace, OK } from "../../http/handler.js";
import * as members from "./member.service.js";

export const memberHandlers = [
  handle("listUsers", async (s) => ({
    status: 200,
    body: { users: await members.listUsers(inWorkspace(s)) },
  })),

  handle("updateMember", async (s, { params, body }) => {
    const scope = inWorkspace(s);
    requireAdmin(scope.workspace, "change member roles");
    await members.changeRole(scope, params.userId, body.role);
    return { status: 200, body: OK };
  }),

  handle("removeMember", async (s, { params }) => {
    await members.removeMember(inWorkspace(s), params.userId);
    return { status: 200, body: OK };
  }),
];
