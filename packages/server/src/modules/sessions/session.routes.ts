import { handle, inWorkspace, OK } from "../../http/handler.js";
import { updateMe } from "../users/user.service.js";
import * as resets from "./password-reset.service.js";
import * as sessions from "./session.service.js";

export const sessionHandlers = [
  handle("signIn", async (s, { body }) => ({
    status: 200,
    body: await sessions.signIn(s.em, s.koa, body.email, body.password),
  })),

  handle("signOut", async (s) => {
    await sessions.signOut(s.em, s.koa, s.caller!);
    return { status: 200, body: OK };
  }),

  handle("signOutEverywhere", async (s) => ({
    status: 200,
    body: { ended: await sessions.signOutEverywhere(s.em, s.koa, s.caller!) },
  })),

  handle("getSession", async (s) => ({
    status: 200,
    body: await sessions.currentSession(s.em, s.caller!),
  })),

  handle("listSessions", async (s) => ({
    status: 200,
    body: { sessions: await sessions.mySessions(s.em, s.caller!) },
  })),

  handle("deleteSession", async (s, { params }) => {
    await sessions.endSession(s.em, s.koa, s.caller!, params.id);
    return { status: 200, body: OK };
  }),

  handle("changePassword", async (s, { body }) => ({
    status: 200,
    body: {
      ok: true as const,
      ended: await sessions.changePassword(s.em, s.koa, s.caller!, body.currentPassword, body.newPassword),
    },
  })),

  handle("updateMe", async (s, { body }) => {
    const { userId: id, name, email } = s.caller!;
    return {
      status: 200,
      body: { ok: true as const, user: await updateMe(s.em, { id, name, email }, body) },
    };
  }),

  handle("createPasswordReset", async (s, { params }) => ({
    status: 201,
    body: { reset: await resets.createPasswordReset(inWorkspace(s), params.userId) },
  })),

  handle("resetPassword", async (s, { body }) => {
    await resets.resetPassword(s.em, body.token, body.password);
    return { status: 200, body: OK };
  }),
];
