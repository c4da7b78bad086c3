import { type CallOptions, type Http, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf, Schemas } from "../operation-types.js";

/**
 * The workspace's agents: app users that people delegate issues to (`tracker.issues.delegate`) and
 * mention in comments (`@<name>`), each acting with its own key.
 */
export class AgentsApi {
  constructor(private readonly http: Http) {}

  /**
   * The workspace's agents, by name.
   *
   * @example
   * for (const agent of await tracker.agents.list()) console.log(agent.name, agent.access);
   */
  async list(options?: CallOptions): Promise<Schemas["Agent"][]> {
    return (await unwrap(this.http.raw.GET("/agents", this.http.init(options)))).agents;
  }

  /**
   * Adds an agent (admins only): an app user of the workspace with its own workspace key, whose token is
   * in this answer only. `access` defaults to `write`.
   *
   * @example
   * const agent = await tracker.agents.create({ name: "triage-bot" });
   * console.log(agent.token); // give it to the agent; it is never shown again
   */
  async create(
    body: BodyOf<"createAgent">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createAgent", 201>["agent"]> {
    const call = this.http.raw.POST("/agents", { body, ...this.http.init(options) });
    return (await unwrap(call)).agent;
  }
}

/**
 * Agent sessions: one agent working on one issue, opened by delegating the issue or mentioning the agent.
 * The agent reports what it does as activities; people answer its questions and may stop it.
 */
export class AgentSessionsApi {
  constructor(private readonly http: Http) {}

  /**
   * Sessions, newest first: those on an issue (`issue`), or else the caller's own (an agent's, or those a
   * person opened).
   *
   * @example
   * const sessions = await tracker.agentSessions.list({ issue: "ENG-1" });
   */
  async list(
    query: QueryOf<"listAgentSessions"> = {},
    options?: CallOptions,
  ): Promise<Schemas["AgentSession"][]> {
    const call = this.http.raw.GET("/agent-sessions", { params: { query }, ...this.http.init(options) });
    return (await unwrap(call)).sessions;
  }

  /**
   * One session and its activities, oldest first.
   *
   * @example
   * const { session, activities } = await tracker.agentSessions.get(id);
   */
  async get(id: string, options?: CallOptions): Promise<ResponseOf<"getAgentSession">> {
    const call = this.http.raw.GET("/agent-sessions/{id}", {
      params: { path: { id } },
      ...this.http.init(options),
    });
    return unwrap(call);
  }

  /**
   * Posts an activity to the caller agent's session: a `thought`, an `action` (with `action`), an
   * `elicitation` (a question for a person), a `response` (done) or an `error`. Resolves to the activity
   * and the session's new state.
   *
   * @example
   * await tracker.agentSessions.post(id, { kind: "thought", body: "Reading the report" });
   * await tracker.agentSessions.post(id, {
   *   kind: "action",
   *   body: "Labelling",
   *   action: { name: "label", parameter: "bug" },
   * });
   */
  async post(
    id: string,
    body: BodyOf<"createAgentActivity">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createAgentActivity", 201>> {
    const call = this.http.raw.POST("/agent-sessions/{id}/activities", {
      params: { path: { id } },
      body,
      ...this.http.init(options),
    });
    return unwrap(call);
  }

  /**
   * A person's message to the session's agent (typically answering its elicitation), recorded as a
   * `prompt`; the session is `pending` again until the agent posts.
   *
   * @example
   * await tracker.agentSessions.reply(id, "It happens on Linux only");
   */
  async reply(
    id: string,
    body: string,
    options?: CallOptions,
  ): Promise<ResponseOf<"createAgentMessage", 201>> {
    const call = this.http.raw.POST("/agent-sessions/{id}/messages", {
      params: { path: { id } },
      body: { body },
      ...this.http.init(options),
    });
    return unwrap(call);
  }

  /**
   * Stops a session for good (members and admins): its agent sees a `stop` activity and the change on the
   * event stream. Resolves to the session.
   *
   * @example
   * await tracker.agentSessions.stop(id);
   */
  async stop(id: string, options?: CallOptions): Promise<Schemas["AgentSession"]> {
    const call = this.http.raw.POST("/agent-sessions/{id}/stop", {
      params: { path: { id } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).session;
  }
}
