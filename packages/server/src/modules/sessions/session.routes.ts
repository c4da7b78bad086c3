import { handle, inWorkspace, OK } from "../../http/handler.js";
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

  handle("createPasswordReset", async (s, { params }) => ({
    status: 201,
    body: { reset: await resets.createPasswordReset(inWorkspace(s), params.userId) },
  })),

  handle("resetPassword", async (s, { body }) => {
    await resets.resetPassword(s.em, body.token, body.password);
    return { status: 200, body: OK };
  }),
];
