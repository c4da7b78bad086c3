import { handle, inWorkspace, OK } from "../../http/handler.js";
import * as invites from "./invite.service.js";

export const inviteHandlers = [
  handle("listInvites", async (s) => ({
    status: 200,
    body: { invites: await invites.listInvites(inWorkspace(s)) },
  })),

  handle("createInvite", async (s, { body }) => ({
    status: 201,
    body: { invite: await invites.createInvite(inWorkspace(s), body.email, body.role ?? "member") },
  })),

  handle("deleteInvite", async (s, { params }) => {
    await invites.deleteInvite(inWorkspace(s), params.id);
    return { status: 200, body: OK };
  }),

  handle("acceptInvite", async (scope, { body }) => ({
    status: 201,
    body: await invites.acceptInvite(scope.em, body.token, body.name, body.password),
  })),
];
