import { done, type Http, paginate, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf, Schemas } from "../operation-types.js";

/** Projects (named by name or id), their members, and moves between workspaces. */
export class ProjectsApi {
  constructor(private readonly http: Http) {}

  /**
   * One page of projects matching the filters; `nextOffset` is `null` on the last page.
   *
   * @example
   * const { projects } = await tracker.projects.list({ status: ["started"], health: ["off_track"] });
   */
  async list(query: QueryOf<"listProjects"> = {}): Promise<ResponseOf<"listProjects">> {
    return unwrap(this.http.raw.GET("/projects", { params: { query } }));
  }

  /**
   * Every project matching the filters, page after page.
   *
   * @example
   * for await (const project of tracker.projects.iterate({ lead: ["me"] })) console.log(project.name);
   */
  iterate(query: QueryOf<"listProjects"> = {}): AsyncIterable<Schemas["Project"]> {
    return paginate(
      query,
      (q) => this.list(q),
      (page) => page.projects,
    );
  }

  /**
   * Creates a project spanning one or more teams.
   *
   * @example
   * const project = await tracker.projects.create({ name: "Launch", teams: ["ENG"] });
   */
  async create(body: BodyOf<"createProject">): Promise<ResponseOf<"createProject", 201>["project"]> {
    return (await unwrap(this.http.raw.POST("/projects", { body: body }))).project;
  }

  /**
   * Changes a project (by name or id).
   *
   * @example
   * await tracker.projects.update("Launch", { status: "started" });
   */
  async update(id: string, body: BodyOf<"updateProject">): Promise<ResponseOf<"updateProject">["project"]> {
    return (
      await unwrap(
        this.http.raw.PATCH("/projects/{id}", {
          params: { path: { id } },
          body: body,
        }),
      )
    ).project;
  }

  /**
   * Moves a project, with its issues, to another workspace and team.
   *
   * @example
   * const { moved } = await tracker.projects.move("Launch", { workspace: "acme-labs", team: "LAB" });
   */
  async move(id: string, body: BodyOf<"moveProject">): Promise<ResponseOf<"moveProject">> {
    return unwrap(
      this.http.raw.POST("/projects/{id}/move", {
        params: { path: { id } },
        body: body,
      }),
    );
  }

  /**
   * The project's members.
   *
   * @example
   * const members = await tracker.projects.members("Launch");
   */
  async members(id: string): Promise<ResponseOf<"listProjectMembers">["members"]> {
    return (await unwrap(this.http.raw.GET("/projects/{id}/members", { params: { path: { id } } }))).members;
  }

  /**
   * Adds a member to a project (email, id or `me`).
   *
   * @example
   * await tracker.projects.addMember("Launch", { user: "ada@example.com" });
   */
  async addMember(id: string, body: BodyOf<"addProjectMember">): Promise<void> {
    await done(
      this.http.raw.POST("/projects/{id}/members", {
        params: { path: { id } },
        body: body,
      }),
    );
  }

  /**
   * Removes a member from a project (email, id or `me`).
   *
   * @example
   * await tracker.projects.removeMember("Launch", "ada@example.com");
   */
  async removeMember(id: string, userId: string): Promise<void> {
    await done(
      this.http.raw.DELETE("/projects/{id}/members", { params: { path: { id }, query: { user: userId } } }),
    );
  }

  /**
   * Everything the project page shows in one call.
   *
   * @example
   * const data = await tracker.projects.pageData("Launch");
   */
  async pageData(id: string): Promise<ResponseOf<"getProjectPageData">> {
    return unwrap(this.http.raw.GET("/projects/{id}/page-data", { params: { path: { id } } }));
  }
}
