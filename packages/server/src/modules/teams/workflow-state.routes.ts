import { handle, inWorkspace } from "../../http/handler.js";
import * as states from "./workflow-state.service.js";

export const workflowStateHandlers = [
  handle("createWorkflowState", async (s, { params, body }) => ({
    status: 201,
    body: { state: await states.createWorkflowState(inWorkspace(s), params.key, body) },
  })),

  handle("updateWorkflowState", async (s, { params, body }) => ({
    status: 200,
    body: {
      ok: true as const,
      state: await states.updateWorkflowState(inWorkspace(s), params.key, params.stateId, body),
    },
  })),

  handle("deleteWorkflowState", async (s, { params, query }) => ({
    status: 200,
    body: await states.deleteWorkflowState(inWorkspace(s), params.key, params.stateId, query.moveTo),
  })),
];
