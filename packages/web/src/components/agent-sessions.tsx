import type { Schemas } from "@tracker/sdk";
import { useState } from "react";
import { useApp } from "../app-context.js";
import { store, useData } from "../store.js";
import { ErrorNote } from "./widgets.js";

type Session = Schemas["AgentSession"];

/** The cache key of an issue's agent sessions; `live.ts` marks it stale on `agent_session` changes. */
export const agentSessionsKey = (identifier: string) => `agent-sessions:${identifier}`;
/** The cache key of one session's activities, under its issue's prefix. */
export const agentSessionKey = (identifier: string, id: string) => `agent-session:${identifier}:${id}`;

const STATE_TEXT: Record<Session["state"], string> = {
  pending: "waiting for the agent",
  active: "working",
  awaiting_input: "waiting for your answer",
  error: "failed",
  complete: "done",
  stopped: "stopped",
  unresponsive: "not responding",
  stale: "gone quiet",
};

const FINISHED = new Set<Session["state"]>(["complete", "error", "stopped"]);

/**
 * The agents working on the issue (openapi.yaml, "Agents"): each session's state and activities as they
 * come (the live stream marks them stale), a reply box while the agent waits for an answer, and Stop.
 * Nothing is shown on an issue no agent has worked on.
 */
export function AgentSessions({ identifier }: { identifier: string }) {
  const { tracker } = useApp();
  const sessions = useData(agentSessionsKey(identifier), () =>
    tracker.agentSessions.list({ issue: identifier }),
  );
  if (!sessions.data?.length) return null;
  return (
    <section aria-labelledby="agent-sessions">
      <h2 id="agent-sessions">Agents</h2>
      {sessions.data.map((s) => (
        <AgentSessionView key={s.id} identifier={identifier} session={s} />
      ))}
    </section>
  );
}

function AgentSessionView({ identifier, session }: { identifier: string; session: Session }) {
  const { tracker } = useApp();
  const read = useData(agentSessionKey(identifier, session.id), () => tracker.agentSessions.get(session.id));
  const [reply, setReply] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const state = read.data?.session.state ?? session.state;
  const refresh = () =>
    store.invalidate([agentSessionsKey(identifier), agentSessionKey(identifier, session.id)]);
  const act = async (call: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await call();
      refresh();
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return (
    <article className="agent-session" aria-label={`${session.agent.name}'s session`}>
      <p>
        <strong>{session.agent.name}</strong>{" "}
        <span className="muted" data-state={state}>
          {STATE_TEXT[state]}
        </span>
        {!FINISHED.has(state) && (
          <button
            type="button"
            disabled={busy}
            onClick={() => act(() => tracker.agentSessions.stop(session.id))}
          >
            Stop
          </button>
        )}
      </p>
      <ol className="agent-activities" aria-label={`${session.agent.name}'s activities`}>
        {(read.data?.activities ?? []).map((a) => (
          <li key={a.id} data-kind={a.kind}>
            <span className="muted">{a.kind === "prompt" ? (a.author?.name ?? "Someone") : a.kind}</span>{" "}
            {a.kind === "stop" ? `${a.author?.name ?? "Someone"} stopped the agent` : a.body}
            {a.action && (
              <span className="muted">
                {" "}
                ({a.action.name}: {a.action.parameter}
                {a.action.result ? ` → ${a.action.result}` : ""})
              </span>
            )}
          </li>
        ))}
      </ol>
      {state === "awaiting_input" && (
        <form
          className="row"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await act(() => tracker.agentSessions.reply(session.id, reply))) setReply("");
          }}
        >
          <label htmlFor={`reply-${session.id}`}>Answer {session.agent.name}</label>
          <input
            id={`reply-${session.id}`}
            value={reply}
            onChange={(e) => setReply(e.target.value)}
            required
          />
          <button type="submit" disabled={busy || !reply.trim()}>
            Send
          </button>
        </form>
      )}
      <ErrorNote error={error} />
    </article>
  );
}
