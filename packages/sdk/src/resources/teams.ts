import { type CallOptions, done, type Http, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf } from "../operation-types.js";

/** A team as `teams.update` answers it: the whole `Team`, joined or not (the contract's `updateTeam`). */
export type UpdatedTeam = ResponseOf<"updateTeam">["team"];

/**
 * Teams, personal spaces, team membership, workflow states and code-host workflow rules. Teams are named by
 * key (`ENG`).
 */
export class TeamsApi {
  constructor(private readonly http: Http) {}

  /**
   * The teams the caller can see, with their workflow states.
   *
   * @example
   * const keys = (await tracker.teams.list()).map((t) => t.key);
   */
  async list(options?: CallOptions): Promise<ResponseOf<"listTeams">["teams"]> {
    return (await unwrap(this.http.raw.GET("/teams", this.http.init(options)))).teams;
  }

  /**
   * Every team of the workspace, including those the caller has not joined.
   *
   * @example
   * const joinable = (await tracker.teams.listAll()).filter((t) => !t.joined);
   */
  async listAll(options?: CallOptions): Promise<ResponseOf<"listAllTeams">["teams"]> {
    return (await unwrap(this.http.raw.GET("/teams/all", this.http.init(options)))).teams;
  }

  /**
   * One team by key or id, joined or not, with its workflow states, `joined` and `memberCount`.
   *
   * @example
   * const { states, memberCount } = await tracker.teams.get("ENG");
   */
  async get(key: string, options?: CallOptions): Promise<ResponseOf<"getTeam">["team"]> {
    const call = this.http.raw.GET("/teams/{key}", { params: { path: { key } }, ...this.http.init(options) });
    return (await unwrap(call)).team;
  }

  /**
   * Creates a team (or, with `personal: true`, the caller's personal space).
   *
   * @example
   * const team = await tracker.teams.create({ name: "Engineering", key: "ENG" });
   */
  async create(
    body: BodyOf<"createTeam">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createTeam", 201>["team"]> {
    return (await unwrap(this.http.raw.POST("/teams", { body, ...this.http.init(options) }))).team;
  }

  /**
   * Changes a team's name, key or settings, and resolves to the team as it now is (the contract's
   * `updateTeam` answers it, joined or not). The answer carries the update's `lastResponse`.
   *
   * @example
   * const team = await tracker.teams.update("ENG", { cyclesEnabled: true });
   */
  async update(key: string, body: BodyOf<"updateTeam">, options?: CallOptions): Promise<UpdatedTeam> {
    const call = this.http.raw.PATCH("/teams/{key}", {
      params: { path: { key } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).team;
  }

  /**
   * Deletes a team with its issues; its projects are detached, or deleted with `deleteProjects: true`.
   *
   * @example
   * const { deletedProjects } = await tracker.teams.delete("OLD", { deleteProjects: true });
   */
  async delete(
    key: string,
    query: QueryOf<"deleteTeam"> = {},
    options?: CallOptions,
  ): Promise<ResponseOf<"deleteTeam">> {
    return unwrap(
      this.http.raw.DELETE("/teams/{key}", { params: { path: { key }, query }, ...this.http.init(options) }),
    );
  }

  /**
   * Joins a team as the caller.
   *
   * @example
   * await tracker.teams.join("ENG");
   */
  async join(key: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.POST("/teams/{key}/join", { params: { path: { key } }, ...this.http.init(options) }),
    );
  }

  /**
   * The team's members, sorted by name. (Everyone who could be added: `tracker.users.list()`.)
   *
   * @example
   * const names = (await tracker.teams.members("ENG")).map((m) => m.name);
   */
  async members(key: string, options?: CallOptions): Promise<ResponseOf<"listTeamMembers">["members"]> {
    const call = this.http.raw.GET("/teams/{key}/members", {
      params: { path: { key } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).members;
  }

  /**
   * Adds a workspace member to a team (user id, email or `me`).
   *
   * @example
   * await tracker.teams.addMember("ENG", "ada@example.com");
   */
  async addMember(key: string, userId: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.POST("/teams/{key}/members", {
        params: { path: { key } },
        body: { userId },
        ...this.http.init(options),
      }),
    );
  }

  /**
   * Removes a member from a team.
   *
   * @example
   * await tracker.teams.removeMember("ENG", user.id);
   */
  async removeMember(key: string, userId: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/teams/{key}/members/{userId}", {
        params: { path: { key, userId } },
        ...this.http.init(options),
      }),
    );
  }

  /**
   * The team's code-host workflow rules. (The states a rule can target: the team's `states` in
   * `tracker.teams.list()`.)
   *
   * @example
   * const merged = (await tracker.teams.workflows("ENG")).find((rule) => rule.trigger === "pr_merged");
   */
  async workflows(key: string, options?: CallOptions): Promise<ResponseOf<"listWorkflows">["workflows"]> {
    const call = this.http.raw.GET("/teams/{key}/workflows", {
      params: { path: { key } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).workflows;
  }

  /**
   * Creates or replaces the rule for a trigger (team-wide, or for one project).
   *
   * @example
   * await tracker.teams.upsertWorkflow("ENG", { trigger: "pr_merged", targetStateId: doneState.id });
   */
  async upsertWorkflow(
    key: string,
    body: BodyOf<"upsertWorkflow">,
    options?: CallOptions,
  ): Promise<ResponseOf<"upsertWorkflow">> {
    return unwrap(
      this.http.raw.POST("/teams/{key}/workflows", {
        params: { path: { key } },
        body,
        ...this.http.init(options),
      }),
    );
  }

  /**
   * The team's workflow states in position order, with their colors (the states of `listWorkflows`).
   *
   * @example
   * const started = (await tracker.teams.states("ENG")).filter((s) => s.type === "started");
   */
  async states(key: string, options?: CallOptions): Promise<ResponseOf<"listWorkflows">["states"]> {
    const call = this.http.raw.GET("/teams/{key}/workflows", {
      params: { path: { key } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).states;
  }

  /**
   * Adds a workflow state. Without `position` it goes after the last state of its type; with one, the
   * states from there on shift down. A name the team already has (any case): 409 `state_name_taken`.
   *
   * @example
   * const qa = await tracker.teams.createState("ENG", { name: "QA", type: "started", color: "#f2994a" });
   */
  async createState(
    key: string,
    body: BodyOf<"createWorkflowState">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createWorkflowState", 201>["state"]> {
    const call = this.http.raw.POST("/teams/{key}/states", {
      params: { path: { key } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).state;
  }

  /**
   * Renames, recolors or moves a workflow state (by id or name); `position` is its new place from 0, the
   * states between shifting by one. A state's type is fixed once made.
   *
   * @example
   * await tracker.teams.updateState("ENG", "Todo", { name: "Ready", position: 1 });
   */
  async updateState(
    key: string,
    stateId: string,
    body: BodyOf<"updateWorkflowState">,
    options?: CallOptions,
  ): Promise<ResponseOf<"updateWorkflowState">["state"]> {
    const call = this.http.raw.PATCH("/teams/{key}/states/{stateId}", {
      params: { path: { key, stateId } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).state;
  }

  /**
   * Deletes a workflow state (by id or name). A state holding issues needs `moveTo`, the state (id or
   * name) they move to; `moved` counts them. A team keeps at least one backlog-or-unstarted, one completed
   * and one canceled state (409 `last_state`).
   *
   * @example
   * const { moved } = await tracker.teams.deleteState("ENG", "In Review", { moveTo: "In Progress" });
   */
  async deleteState(
    key: string,
    stateId: string,
    query: QueryOf<"deleteWorkflowState"> = {},
    options?: CallOptions,
  ): Promise<ResponseOf<"deleteWorkflowState">> {
    return unwrap(
      this.http.raw.DELETE("/teams/{key}/states/{stateId}", {
        params: { path: { key, stateId }, query },
        ...this.http.init(options),
      }),
    );
  }

  /**
   * Deletes a workflow rule.
   *
   * @example
   * await tracker.teams.deleteWorkflow("ENG", rule.id);
   */
  async deleteWorkflow(key: string, ruleId: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/teams/{key}/workflows/{ruleId}", {
        params: { path: { key, ruleId } },
        ...this.http.init(options),
      }),
    );
  }
}
