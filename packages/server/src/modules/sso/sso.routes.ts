import { handle, inWorkspace, OK } from "../../http/handler.js";
import * as sso from "./sso.service.js";

export const ssoHandlers = [
  handle("getSsoSettings", async (s) => ({
    status: 200,
    body: { sso: await sso.getSettings(inWorkspace(s)) },
  })),

  handle("putSsoSettings", async (s, { body }) => ({
    status: 200,
    body: { sso: await sso.putSettings(inWorkspace(s), body) },
  })),

  handle("deleteSsoSettings", async (s) => {
    await sso.deleteSettings(inWorkspace(s));
    return { status: 200, body: OK };
  }),
];
