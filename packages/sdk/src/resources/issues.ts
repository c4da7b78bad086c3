import { type CallOptions, done, type Http, type Page, paginate, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf, Schemas } from "../operation-types.js";

/** Issues, named by identifier (`ENG-123`): lists, reads, writes, links, relations and moves. */
export class IssuesApi {
  constructor(private readonly http: Http) {}

  /**
   * One page of issues matching the filters; `nextOffset` is the next page's offset, `null` on the last.
   *
   * @example
   * const { items, nextOffset } = await tracker.issues.list({ team: "ENG", special: ["overdue", "blocked"] });
   */
  async list(query: QueryOf<"listIssues"> = {}, options?: CallOptions): Promise<Page<Schemas["Issue"]>> {
    const page = await unwrap(
      this.http.raw.GET("/issues", { params: { query }, ...this.http.init(options) }),
    );
    return { items: page.issues, nextOffset: page.nextOffset };
  }

  /**
   * Every issue matching the filters, fetching page after page as the loop asks for more.
   *
   * @example
   * for await (const issue of tracker.issues.iterate({ assignee: "me", stateType: ["started"] })) {
   *   console.log(issue.identifier, issue.title);
   * }
   */
  iterate(query: QueryOf<"listIssues"> = {}, options?: CallOptions): AsyncIterable<Schemas["Issue"]> {
    return paginate(query, (q) => this.list(q, options));
  }

  /**
   * One issue with its details.
   *
   * @example
   * const issue = await tracker.issues.get("ENG-123");
   */
  async get(identifier: string, options?: CallOptions): Promise<ResponseOf<"getIssue">["issue"]> {
    const call = this.http.raw.GET("/issues/{identifier}", {
      params: { path: { identifier } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).issue;
  }

  /**
   * Creates an issue in a team.
   *
   * @example
   * const issue = await tracker.issues.create({ team: "ENG", title: "Fix login", priority: 2 });
   */
  async create(
    body: BodyOf<"createIssue">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createIssue", 201>["issue"]> {
    return (await unwrap(this.http.raw.POST("/issues", { body, ...this.http.init(options) }))).issue;
  }

  /**
   * Changes an issue; absent fields are left alone and `null` clears a field.
   *
   * @example
   * await tracker.issues.update("ENG-123", { state: "In Progress", assignee: "me" });
   */
  async update(
    identifier: string,
    body: BodyOf<"updateIssue">,
    options?: CallOptions,
  ): Promise<ResponseOf<"updateIssue">["issue"]> {
    const call = this.http.raw.PATCH("/issues/{identifier}", {
      params: { path: { identifier } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).issue;
  }

  /**
   * Everything the issue page shows in one call: the issue, comments, sub-issues, relations, choices.
   *
   * @example
   * const { issue, comments, subIssues } = await tracker.issues.pageData("ENG-123");
   */
  async pageData(identifier: string, options?: CallOptions): Promise<ResponseOf<"getIssuePageData">> {
    return unwrap(
      this.http.raw.GET("/issues/{identifier}/page-data", {
        params: { path: { identifier } },
        ...this.http.init(options),
      }),
    );
  }

  /**
   * Attaches a web link to an issue.
   *
   * @example
   * await tracker.issues.addLink("ENG-123", { url: "https://example.com/spec", title: "Spec" });
   */
  async addLink(
    identifier: string,
    body: BodyOf<"createIssueLink">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createIssueLink", 201>["link"]> {
    const call = this.http.raw.POST("/issues/{identifier}/links", {
      params: { path: { identifier } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).link;
  }

  /**
   * The issue's relations (blocks, blocked by, related, duplicate).
   *
   * @example
   * const blockers = (await tracker.issues.relations("ENG-123")).filter((r) => r.type === "blocked_by");
   */
  async relations(
    identifier: string,
    options?: CallOptions,
  ): Promise<ResponseOf<"listIssueRelations">["relations"]> {
    const call = this.http.raw.GET("/issues/{identifier}/relations", {
      params: { path: { identifier } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).relations;
  }

  /**
   * Relates the issue to another one, from this issue's side.
   *
   * @example
   * await tracker.issues.addRelation("ENG-1", { issue: "ENG-2", type: "blocks" });
   */
  async addRelation(
    identifier: string,
    body: BodyOf<"createIssueRelation">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createIssueRelation", 201>["relation"]> {
    const call = this.http.raw.POST("/issues/{identifier}/relations", {
      params: { path: { identifier } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).relation;
  }

  /**
   * Removes a relation.
   *
   * @example
   * await tracker.issues.deleteRelation("ENG-1", relation.id);
   */
  async deleteRelation(identifier: string, relationId: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/issues/{identifier}/relations/{relationId}", {
        params: { path: { identifier, relationId } },
        ...this.http.init(options),
      }),
    );
  }

  /**
   * Moves issues to another team; each gets a new identifier there. Resolves to the move's report
   * (`moved`).
   *
   * @example
   * const moved = await tracker.issues.move({ identifiers: ["ENG-1", "ENG-2"], team: "OPS" });
   */
  async move(body: BodyOf<"moveIssues">, options?: CallOptions): Promise<ResponseOf<"moveIssues">["moved"]> {
    return (await unwrap(this.http.raw.POST("/issues/move", { body, ...this.http.init(options) }))).moved;
  }
}
