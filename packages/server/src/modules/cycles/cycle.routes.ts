import { handle, inWorkspace } from "../../http/handler.js";
import { listCycles } from "./cycle.query.js";
import * as cycles from "./cycle.service.js";

export const cycleHandlers = [
  handle("listCycles", async (s, { query }) => ({
    status: 200,
    body: { cycles: await listCycles(inWorkspace(s), query.team) },
  })),

  handle("createCycle", async (s, { body }) => ({
    status: 201,
    body: await cycles.createCycle(inWorkspace(s), body),
  })),

  handle("updateCycle", async (s, { params, body }) => ({
    status: 200,
    body: { cycle: await cycles.updateCycle(inWorkspace(s), params.id, body) },
  })),

  handle("deleteCycle", async (s, { params }) => {
    await cycles.deleteCycle(inWorkspace(s), params.id);
    return { status: 200, body: { deleted: true as const } };
  }),
];
