import { type CallOptions, type Http, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf } from "../operation-types.js";

/** Status updates of teams, projects and initiatives. */
export class UpdatesApi {
  constructor(private readonly http: Http) {}

  /**
   * Status updates of a team, a project or an initiative, newest first.
   *
   * @example
   * const updates = await tracker.updates.list({ project: "Launch" });
   */
  async list(
    query: QueryOf<"listUpdates"> = {},
    options?: CallOptions,
  ): Promise<ResponseOf<"listUpdates">["updates"]> {
    return (await unwrap(this.http.raw.GET("/updates", { params: { query }, ...this.http.init(options) })))
      .updates;
  }

  /**
   * Posts a status update on exactly one of a team, a project or an initiative.
   *
   * @example
   * await tracker.updates.create({ project: "Launch", title: "Week 3", content: "On track." });
   */
  async create(
    body: BodyOf<"createUpdate">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createUpdate", 201>["update"]> {
    return (await unwrap(this.http.raw.POST("/updates", { body, ...this.http.init(options) }))).update;
  }

  /**
   * Issues completed since the subject's last update: material for the next one.
   *
   * @example
   * const { since, issues } = await tracker.updates.candidates({ team: "ENG" });
   */
  async candidates(
    query: QueryOf<"getUpdateCandidates"> = {},
    options?: CallOptions,
  ): Promise<ResponseOf<"getUpdateCandidates">> {
    return unwrap(
      this.http.raw.GET("/updates/candidates", { params: { query }, ...this.http.init(options) }),
    );
  }
}
