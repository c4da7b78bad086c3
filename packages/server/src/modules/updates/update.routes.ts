import { handle, inWorkspace } from "../../http/handler.js";
import * as updates from "./update.service.js";

export const updateHandlers = [
  handle("listUpdates", async (s, { query }) => ({
    status: 200,
    body: { updates: await updates.listUpdates(inWorkspace(s), query) },
  })),

  handle("createUpdate", async (s, { body }) => ({
    status: 201,
    body: { update: await updates.createUpdate(inWorkspace(s), body) },
  })),

  handle("getUpdateCandidates", async (s, { query }) => ({
    status: 200,
    body: await updates.getUpdateCandidates(inWorkspace(s), query),
  })),
];
