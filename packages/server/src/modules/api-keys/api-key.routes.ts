import { handle, inWorkspace, OK } from "../../http/handler.js";
import * as keys from "./api-key.service.js";

export const apiKeyHandlers = [
  handle("listApiKeys", async (s) => ({ status: 200, body: { keys: await keys.listKeys(inWorkspace(s)) } })),

  handle("createApiKey", async (s, { body }) => ({
    status: 201,
    body: {
      key: await keys.createKey(inWorkspace(s), body.name, body.scope ?? "workspace", {
        access: body.access,
        expiresAt: body.expiresAt,
      }),
    },
  })),

  handle("deleteApiKey", async (s, { params }) => {
    await keys.deleteKey(inWorkspace(s), params.id);
    return { status: 200, body: OK };
  }),
];
