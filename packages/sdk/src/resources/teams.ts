import { done, type Http, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf } from "../operation-types.js";

/** Teams, personal spaces, team membership and code-host workflow rules. Teams are named by key (`ENG`). */
export class TeamsApi {
  constructor(private readonly http: Http) {}

  /**
   * The teams the caller can see, with their workflow states.
   *
   * @example
   * const keys = (await tracker.teams.list()).map((t) => t.key);
   */
  async list(): Promise<ResponseOf<"listTeams">["teams"]> {
    return (await unwrap(this.http.raw.GET("/teams"))).teams;
  }

  /**
   * Every team of the workspace, including those the caller has not joined.
   *
   * @example
   * const joinable = (await tracker.teams.listAll()).filter((t) => !t.joined);
   */
  async listAll(): Promise<ResponseOf<"listAllTeams">["teams"]> {
    return (await unwrap(this.http.raw.GET("/teams/all"))).teams;
  }

  /**
   * Creates a team (or, with `personal: true`, the caller's personal space).
   *
   * @example
   * const team = await tracker.teams.create({ name: "Engineering", key: "ENG" });
   */
  async create(body: BodyOf<"createTeam">): Promise<ResponseOf<"createTeam", 201>["team"]> {
    return (await unwrap(this.http.raw.POST("/teams", { body: body }))).team;
  }

  /**
   * Changes a team's name, key or settings.
   *
   * @example
   * await tracker.teams.update("ENG", { cyclesEnabled: true });
   */
  async update(key: string, body: BodyOf<"updateTeam">): Promise<void> {
    await done(this.http.raw.PATCH("/teams/{key}", { params: { path: { key } }, body: body }));
  }

  /**
   * Deletes a team with its issues; its projects are detached, or deleted with `deleteProjects: true`.
   *
   * @example
   * const { deletedProjects } = await tracker.teams.delete("OLD", { deleteProjects: true });
   */
  async delete(key: string, query: QueryOf<"deleteTeam"> = {}): Promise<ResponseOf<"deleteTeam">> {
    return unwrap(this.http.raw.DELETE("/teams/{key}", { params: { path: { key }, query } }));
  }

  /**
   * Joins a team as the caller.
   *
   * @example
   * await tracker.teams.join("ENG");
   */
  async join(key: string): Promise<void> {
    await done(this.http.raw.POST("/teams/{key}/join", { params: { path: { key } } }));
  }

  /**
   * The team's members, and the workspace members who could be added.
   *
   * @example
   * const { members, workspaceMembers } = await tracker.teams.members("ENG");
   */
  async members(key: string): Promise<ResponseOf<"listTeamMembers">> {
    return unwrap(this.http.raw.GET("/teams/{key}/members", { params: { path: { key } } }));
  }

  /**
   * Adds a workspace member to a team (user id, email or `me`).
   *
   * @example
   * await tracker.teams.addMember("ENG", "ada@example.com");
   */
  async addMember(key: string, userId: string): Promise<void> {
    await done(this.http.raw.POST("/teams/{key}/members", { params: { path: { key } }, body: { userId } }));
  }

  /**
   * Removes a member from a team.
   *
   * @example
   * await tracker.teams.removeMember("ENG", user.id);
   */
  async removeMember(key: string, userId: string): Promise<void> {
    await done(this.http.raw.DELETE("/teams/{key}/members/{userId}", { params: { path: { key, userId } } }));
  }

  /**
   * The team's code-host workflow rules, with the states and projects they can point at.
   *
   * @example
   * const { workflows, states } = await tracker.teams.workflows("ENG");
   */
  async workflows(key: string): Promise<ResponseOf<"listWorkflows">> {
    return unwrap(this.http.raw.GET("/teams/{key}/workflows", { params: { path: { key } } }));
  }

  /**
   * Creates or replaces the rule for a trigger (team-wide, or for one project).
   *
   * @example
   * await tracker.teams.upsertWorkflow("ENG", { trigger: "pr_merged", targetStateId: doneState.id });
   */
  async upsertWorkflow(key: string, body: BodyOf<"upsertWorkflow">): Promise<ResponseOf<"upsertWorkflow">> {
    return unwrap(
      this.http.raw.POST("/teams/{key}/workflows", {
        params: { path: { key } },
        body: body,
      }),
    );
  }

  /**
   * Deletes a workflow rule.
   *
   * @example
   * await tracker.teams.deleteWorkflow("ENG", rule.id);
   */
  async deleteWorkflow(key: string, ruleId: string): Promise<void> {
    await done(
      this.http.raw.DELETE("/teams/{key}/workflows/{ruleId}", { params: { path: { key, ruleId } } }),
    );
  }
}
