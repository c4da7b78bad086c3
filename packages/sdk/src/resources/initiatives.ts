import { type CallOptions, type Http, type Page, pageOf, paginate, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf, Schemas } from "../operation-types.js";

/** Initiatives (named by name or id) grouping projects, and moves between workspaces. */
export class InitiativesApi {
  constructor(private readonly http: Http) {}

  /**
   * One page of initiatives matching the filters; `nextOffset` is `null` on the last page.
   *
   * @example
   * const { items, nextOffset } = await tracker.initiatives.list({ status: ["active"] });
   */
  async list(
    query: QueryOf<"listInitiatives"> = {},
    options?: CallOptions,
  ): Promise<Page<Schemas["Initiative"]>> {
    const page = await unwrap(
      this.http.raw.GET("/initiatives", { params: { query }, ...this.http.init(options) }),
    );
    return pageOf(page, page.initiatives, page.nextOffset, page.nextCursor);
  }

  /**
   * Every initiative matching the filters, page after page.
   *
   * @example
   * for await (const initiative of tracker.initiatives.iterate()) console.log(initiative.name);
   */
  iterate(
    query: QueryOf<"listInitiatives"> = {},
    options?: CallOptions,
  ): AsyncIterable<Schemas["Initiative"]> {
    return paginate(query, (q) => this.list(q, options));
  }

  /**
   * One initiative by id or name, as the list shows it (progress, health, lead).
   *
   * @example
   * const growth = await tracker.initiatives.get("Q3 growth");
   * console.log(growth.progress.percent, growth.health);
   */
  async get(id: string, options?: CallOptions): Promise<ResponseOf<"getInitiative">["initiative"]> {
    const call = this.http.raw.GET("/initiatives/{id}", {
      params: { path: { id } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).initiative;
  }

  /**
   * Creates an initiative.
   *
   * @example
   * const initiative = await tracker.initiatives.create({ name: "Q3 growth", lead: "me" });
   */
  async create(
    body: BodyOf<"createInitiative">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createInitiative", 201>["initiative"]> {
    return (await unwrap(this.http.raw.POST("/initiatives", { body, ...this.http.init(options) })))
      .initiative;
  }

  /**
   * Changes an initiative (by name or id).
   *
   * @example
   * await tracker.initiatives.update("Q3 growth", { status: "completed" });
   */
  async update(
    id: string,
    body: BodyOf<"updateInitiative">,
    options?: CallOptions,
  ): Promise<ResponseOf<"updateInitiative">["initiative"]> {
    const call = this.http.raw.PATCH("/initiatives/{id}", {
      params: { path: { id } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).initiative;
  }

  /**
   * Everything the initiative page shows in one call.
   *
   * @example
   * const data = await tracker.initiatives.pageData("Q3 growth");
   */
  async pageData(id: string, options?: CallOptions): Promise<ResponseOf<"getInitiativePageData">> {
    return unwrap(
      this.http.raw.GET("/initiatives/{id}/page-data", {
        params: { path: { id } },
        ...this.http.init(options),
      }),
    );
  }

  /**
   * Moves an initiative, with its projects and their issues, to another workspace; resolves to the
   * move's report (`moved`).
   *
   * @example
   * const moved = await tracker.initiatives.move("Q3 growth", { workspace: "acme-labs", team: "LAB" });
   */
  async move(
    id: string,
    body: BodyOf<"moveInitiative">,
    options?: CallOptions,
  ): Promise<ResponseOf<"moveInitiative">["moved"]> {
    const call = this.http.raw.POST("/initiatives/{id}/move", {
      params: { path: { id } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).moved;
  }
}
