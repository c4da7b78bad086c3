import { handle, inWorkspace } from "../../http/handler.js";
import { listAgents } from "./agent.query.js";
import * as agents from "./agent.service.js";

export const agentHandlers = [
  handle("listAgents", async (s) => ({ status: 200, body: { agents: await listAgents(inWorkspace(s)) } })),

  handle("createAgent", async (s, { body }) => ({
    status: 201,
    body: { agent: await agents.createAgent(inWorkspace(s), body) },
  })),

  handle("listAgentSessions", async (s, { query }) => ({
    status: 200,
    body: {
      sessions: await agents.listAgentSessions(inWorkspace(s), { issue: query.issue, limit: query.limit }),
    },
  })),

  handle("getAgentSession", async (s, { params }) => ({
    status: 200,
    body: await agents.getAgentSession(inWorkspace(s), params.id),
  })),

  handle("createAgentActivity", async (s, { params, body }) => ({
    status: 201,
    body: await agents.postActivity(inWorkspace(s), params.id, body),
  })),

  handle("createAgentMessage", async (s, { params, body }) => ({
    status: 201,
    body: await agents.postMessage(inWorkspace(s), params.id, body.body),
  })),

  handle("stopAgentSession", async (s, { params }) => ({
    status: 200,
    body: { session: await agents.stopSession(inWorkspace(s), params.id) },
  })),
];
