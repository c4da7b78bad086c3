import type { Schemas } from "@tracker/sdk";
import { z } from "zod";
import { shortTime } from "../format.js";
import { identifierInput, limitInput } from "../inputs.js";
import { defineTool } from "../tool.js";

type Session = Schemas["AgentSession"];

const sessionLine = (s: Session) =>
  `${s.id} ${s.issue.identifier} @${s.agent.name} ${s.state} (${s.trigger})` +
  (s.lastActivityAt ? ` · last activity ${shortTime(s.lastActivityAt)}` : " · no activity yet");

export const listAgentSessionsTool = defineTool({
  name: "list_agent_sessions",
  title: "List agent sessions",
  description:
    "Agents' sessions on issues delegated to them or mentioning them: an issue's, else yours. `session`: one, " +
    "with its activities.",
  input: {
    identifier: identifierInput.optional(),
    session: z.string().length(36).optional(),
    limit: limitInput(100, 20),
  },
  output: {
    sessions: z.array(z.object({ id: z.string(), issue: z.string(), agent: z.string(), state: z.string() })),
    activities: z.array(z.object({ kind: z.string(), body: z.string() })).optional(),
  },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const one = input.session ? await tracker.agentSessions.get(input.session, read) : undefined;
    const listed = one
      ? [one.session]
      : await tracker.agentSessions.list(
          { ...(input.identifier ? { issue: input.identifier } : {}), limit: input.limit },
          read,
        );
    const sessions = listed.map((s) => ({
      id: s.id,
      issue: s.issue.identifier,
      agent: s.agent.name,
      state: s.state,
    }));
    const activities = one?.activities.map((a) => ({ kind: a.kind, body: a.body }));
    const lines = listed.map(sessionLine);
    for (const a of one?.activities ?? [])
      lines.push(`  ${shortTime(a.createdAt)} ${a.kind}${a.author ? ` by ${a.author.name}` : ""}: ${a.body}`);
    return {
      text: lines.join("\n") || "No agent sessions.",
      data: { sessions, ...(activities ? { activities } : {}) },
    };
  },
});
