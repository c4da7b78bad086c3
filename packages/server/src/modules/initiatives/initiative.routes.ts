import { CONFIRMS_CALLER, handle, inWorkspace } from "../../http/handler.js";
import { queryInitiatives } from "./initiative.query.js";
import * as initiatives from "./initiative.service.js";

export const initiativeHandlers = [
  handle(
    "listInitiatives",
    async (s, { query }) => ({
      status: 200,
      body: await queryInitiatives(inWorkspace(s), { ...query, limit: query.limit ?? 50 }),
    }),
    CONFIRMS_CALLER,
  ),

  handle("getInitiative", async (s, { params }) => ({
    status: 200,
    body: { initiative: await initiatives.getInitiative(inWorkspace(s), params.id) },
  })),

  handle("createInitiative", async (s, { body }) => ({
    status: 201,
    body: { initiative: await initiatives.createInitiative(inWorkspace(s), body) },
  })),

  handle("updateInitiative", async (s, { params, body }) => ({
    status: 200,
    body: { initiative: await initiatives.updateInitiative(inWorkspace(s), params.id, body) },
  })),

  handle("getInitiativePageData", async (s, { params }) => ({
    status: 200,
    body: await initiatives.initiativePageData(inWorkspace(s), params.id),
  })),

  handle("moveInitiative", async (s, { params, body }) => ({
    status: 200,
    body: { moved: await initiatives.moveInitiative(inWorkspace(s), params.id, body) },
  })),
];
