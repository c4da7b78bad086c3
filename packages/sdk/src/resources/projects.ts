import { type CallOptions, done, type Http, type Page, pageOf, paginate, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf, Schemas } from "../operation-types.js";

/** Projects (named by name or id), their members, and moves between workspaces. */
export class ProjectsApi {
  constructor(private readonly http: Http) {}

  /**
   * One page of projects matching the filters; `nextOffset` is `null` on the last page.
   *
   * @example
   * const { items } = await tracker.projects.list({ status: ["started"], health: ["off_track"] });
   */
  async list(query: QueryOf<"listProjects"> = {}, options?: CallOptions): Promise<Page<Schemas["Project"]>> {
    const page = await unwrap(
      this.http.raw.GET("/projects", { params: { query }, ...this.http.init(options) }),
    );
    return pageOf(page, page.projects, page.nextOffset, page.nextCursor);
  }

  /**
   * Every project matching the filters, page after page.
   *
   * @example
   * for await (const project of tracker.projects.iterate({ lead: ["me"] })) console.log(project.name);
   */
  iterate(query: QueryOf<"listProjects"> = {}, options?: CallOptions): AsyncIterable<Schemas["Project"]> {
    return paginate(query, (q) => this.list(q, options));
  }

  /**
   * One project by id or name, as the list shows it (progress, health, lead).
   *
   * @example
   * const launch = await tracker.projects.get("Launch");
   * console.log(launch.progress.percent, launch.health);
   */
  async get(id: string, options?: CallOptions): Promise<ResponseOf<"getProject">["project"]> {
    const call = this.http.raw.GET("/projects/{id}", {
      params: { path: { id } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).project;
  }

  /**
   * Creates a project spanning one or more teams.
   *
   * @example
   * const project = await tracker.projects.create({ name: "Launch", teams: ["ENG"] });
   */
  async create(
    body: BodyOf<"createProject">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createProject", 201>["project"]> {
    return (await unwrap(this.http.raw.POST("/projects", { body, ...this.http.init(options) }))).project;
  }

  /**
   * Changes a project (by name or id).
   *
   * @example
   * await tracker.projects.update("Launch", { status: "started" });
   */
  async update(
    id: string,
    body: BodyOf<"updateProject">,
    options?: CallOptions,
  ): Promise<ResponseOf<"updateProject">["project"]> {
    const call = this.http.raw.PATCH("/projects/{id}", {
      params: { path: { id } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).project;
  }

  /**
   * Moves a project, with its issues, to another workspace and team; resolves to the move's report
   * (`moved`).
   *
   * @example
   * const moved = await tracker.projects.move("Launch", { workspace: "acme-labs", team: "LAB" });
   */
  async move(
    id: string,
    body: BodyOf<"moveProject">,
    options?: CallOptions,
  ): Promise<ResponseOf<"moveProject">["moved"]> {
    const call = this.http.raw.POST("/projects/{id}/move", {
      params: { path: { id } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).moved;
  }

  /**
   * The project's members.
   *
   * @example
   * const members = await tracker.projects.members("Launch");
   */
  async members(id: string, options?: CallOptions): Promise<ResponseOf<"listProjectMembers">["members"]> {
    const call = this.http.raw.GET("/projects/{id}/members", {
      params: { path: { id } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).members;
  }

  /**
   * Adds a member to a project (email, id or `me`).
   *
   * @example
   * await tracker.projects.addMember("Launch", { user: "ada@example.com" });
   */
  async addMember(id: string, body: BodyOf<"addProjectMember">, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.POST("/projects/{id}/members", {
        params: { path: { id } },
        body,
        ...this.http.init(options),
      }),
    );
  }

  /**
   * Removes a member from a project (email, id or `me`).
   *
   * @example
   * await tracker.projects.removeMember("Launch", "ada@example.com");
   */
  async removeMember(id: string, userId: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/projects/{id}/members", {
        params: { path: { id }, query: { user: userId } },
        ...this.http.init(options),
      }),
    );
  }

  /**
   * Everything the project page shows in one call.
   *
   * @example
   * const data = await tracker.projects.pageData("Launch");
   */
  async pageData(id: string, options?: CallOptions): Promise<ResponseOf<"getProjectPageData">> {
    return unwrap(
      this.http.raw.GET("/projects/{id}/page-data", { params: { path: { id } }, ...this.http.init(options) }),
    );
  }
}
