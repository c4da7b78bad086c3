import { handle, inWorkspace, OK } from "../../http/handler.js";
import { listUsers } from "./member.query.js";
import * as members from "./member.service.js";

export const memberHandlers = [
  handle("listUsers", async (s) => ({
    status: 200,
    body: { users: await listUsers(inWorkspace(s)) },
  })),

  handle("updateMember", async (s, { params, body }) => {
    await members.changeRole(inWorkspace(s), params.userId, body.role);
    return { status: 200, body: OK };
  }),

  handle("removeMember", async (s, { params }) => {
    await members.removeMember(inWorkspace(s), params.userId);
    return { status: 200, body: OK };
  }),
];
