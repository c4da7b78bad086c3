import { done, type Http, paginate, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf, Schemas } from "../operation-types.js";

/** Issues, named by identifier (`ENG-123`): lists, reads, writes, links, relations and moves. */
export class IssuesApi {
  constructor(private readonly http: Http) {}

  /**
   * One page of issues matching the filters; `nextOffset` is the next page's offset, `null` on the last.
   *
   * @example
   * const { issues, nextOffset } = await tracker.issues.list({ team: "ENG", special: ["overdue", "blocked"] });
   */
  async list(query: QueryOf<"listIssues"> = {}): Promise<ResponseOf<"listIssues">> {
    return unwrap(this.http.raw.GET("/issues", { params: { query } }));
  }

  /**
   * Every issue matching the filters, fetching page after page as the loop asks for more.
   *
   * @example
   * for await (const issue of tracker.issues.iterate({ assignee: "me", stateType: ["started"] })) {
   *   console.log(issue.identifier, issue.title);
   * }
   */
  iterate(query: QueryOf<"listIssues"> = {}): AsyncIterable<Schemas["Issue"]> {
    return paginate(
      query,
      (q) => this.list(q),
      (page) => page.issues,
    );
  }

  /**
   * One issue with its details.
   *
   * @example
   * const issue = await tracker.issues.get("ENG-123");
   */
  async get(identifier: string): Promise<ResponseOf<"getIssue">["issue"]> {
    return (await unwrap(this.http.raw.GET("/issues/{identifier}", { params: { path: { identifier } } })))
      .issue;
  }

  /**
   * Creates an issue in a team.
   *
   * @example
   * const issue = await tracker.issues.create({ team: "ENG", title: "Fix login", priority: 2 });
   */
  async create(body: BodyOf<"createIssue">): Promise<ResponseOf<"createIssue", 201>["issue"]> {
    return (await unwrap(this.http.raw.POST("/issues", { body: body }))).issue;
  }

  /**
   * Changes an issue; absent fields are left alone and `null` clears a field.
   *
   * @example
   * await tracker.issues.update("ENG-123", { state: "In Progress", assignee: "me" });
   */
  async update(identifier: string, body: BodyOf<"updateIssue">): Promise<ResponseOf<"updateIssue">["issue"]> {
    const call = this.http.raw.PATCH("/issues/{identifier}", {
      params: { path: { identifier } },
      body: body,
    });
    return (await unwrap(call)).issue;
  }

  /**
   * Everything the issue page shows in one call: the issue, comments, sub-issues, relations, choices.
   *
   * @example
   * const { issue, comments, subIssues } = await tracker.issues.pageData("ENG-123");
   */
  async pageData(identifier: string): Promise<ResponseOf<"getIssuePageData">> {
    return unwrap(this.http.raw.GET("/issues/{identifier}/page-data", { params: { path: { identifier } } }));
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
  ): Promise<ResponseOf<"createIssueLink", 201>["link"]> {
    const call = this.http.raw.POST("/issues/{identifier}/links", {
      params: { path: { identifier } },
      body: body,
    });
    return (await unwrap(call)).link;
  }

  /**
   * The issue's relations (blocks, blocked by, related, duplicate).
   *
   * @example
   * const blockers = (await tracker.issues.relations("ENG-123")).filter((r) => r.type === "blocked_by");
   */
  async relations(identifier: string): Promise<ResponseOf<"listIssueRelations">["relations"]> {
    const call = this.http.raw.GET("/issues/{identifier}/relations", { params: { path: { identifier } } });
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
  ): Promise<ResponseOf<"createIssueRelation", 201>["relation"]> {
    const call = this.http.raw.POST("/issues/{identifier}/relations", {
      params: { path: { identifier } },
      body: body,
    });
    return (await unwrap(call)).relation;
  }

  /**
   * Removes a relation.
   *
   * @example
   * await tracker.issues.deleteRelation("ENG-1", relation.id);
   */
  async deleteRelation(identifier: string, relationId: string): Promise<void> {
    await done(
      this.http.raw.DELETE("/issues/{identifier}/relations/{relationId}", {
        params: { path: { identifier, relationId } },
      }),
    );
  }

  /**
   * Moves issues to another team; each gets a new identifier there.
   *
   * @example
   * const moved = await tracker.issues.move({ identifiers: ["ENG-1", "ENG-2"], team: "OPS" });
   */
  async move(body: BodyOf<"moveIssues">): Promise<ResponseOf<"moveIssues">["moved"]> {
    return (await unwrap(this.http.raw.POST("/issues/move", { body: body }))).moved;
  }
}
