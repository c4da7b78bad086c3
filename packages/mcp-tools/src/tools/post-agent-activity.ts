import { z } from "zod";
import { schema, text } from "../contract.js";
import { identifierInput } from "../inputs.js";
import { defineTool } from "../tool.js";

const AGENT_KINDS = ["thought", "action", "elicitation", "response", "error"] as const;

export const postAgentActivityTool = defineTool({
  name: "post_agent_activity",
  title: "Post to an agent session",
  description:
    "The session's agent reports a thought, an action (with `action`), an elicitation (asks a person), a " +
    "response (done) or an error; a person replies (`prompt`) or stops it. By `session` id or by issue.",
  input: {
    session: z.string().length(36).optional(),
    identifier: identifierInput.optional(),
    kind: z.enum([...AGENT_KINDS, "prompt", "stop"]),
    body: text(schema.AgentActivityCreate.body).optional(),
    action: z
      .object({
        name: text(schema.AgentAction.name),
        parameter: text(schema.AgentAction.parameter),
        result: text(schema.AgentAction.parameter).optional(),
      })
      .optional(),
  },
  output: { session: z.object({ id: z.string(), state: z.string() }) },
  readOnly: false,
  destructive: false,
  idempotent: false,
  async run(input, { tracker, read, write }) {
    let id = input.session;
    if (!id) {
      if (!input.identifier)
        throw new Error("Name the `session` (list_agent_sessions) or the issue's `identifier`.");
      const sessions = await tracker.agentSessions.list({ issue: input.identifier }, read);
      const open = sessions.find((s) => !["complete", "error", "stopped"].includes(s.state)) ?? sessions[0];
      if (!open)
        throw new Error(
          `No agent session on ${input.identifier.toUpperCase()}; delegate it to an agent first.`,
        );
      id = open.id;
    }
    const body = input.body ?? "";
    const session =
      input.kind === "stop"
        ? await tracker.agentSessions.stop(id, write())
        : input.kind === "prompt"
          ? (await tracker.agentSessions.reply(id, body, write())).session
          : (
              await tracker.agentSessions.post(
                id,
                { kind: input.kind, body, ...(input.action ? { action: input.action } : {}) },
                write(),
              )
            ).session;
    const did =
      input.kind === "stop" ? "Stopped" : input.kind === "prompt" ? "Replied to" : `Posted ${input.kind} to`;
    return {
      text: `${did} @${session.agent.name} on ${session.issue.identifier} (session ${session.id}, now ${session.state}).`,
      data: { session: { id: session.id, state: session.state } },
    };
  },
});
