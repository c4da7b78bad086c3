import { type CallOptions, done, type Http, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf } from "../operation-types.js";

/** Documents of a team, optionally linked to issues. */
export class DocumentsApi {
  constructor(private readonly http: Http) {}

  /**
   * Documents matching a search, a team or a linked issue.
   *
   * @example
   * const docs = await tracker.documents.list({ team: "ENG", q: "runbook" });
   */
  async list(
    query: QueryOf<"listDocuments"> = {},
    options?: CallOptions,
  ): Promise<ResponseOf<"listDocuments">["documents"]> {
    return (await unwrap(this.http.raw.GET("/documents", { params: { query }, ...this.http.init(options) })))
      .documents;
  }

  /**
   * One document with its content.
   *
   * @example
   * const doc = await tracker.documents.get(id);
   */
  async get(id: string, options?: CallOptions): Promise<ResponseOf<"getDocument">["document"]> {
    const call = this.http.raw.GET("/documents/{id}", {
      params: { path: { id } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).document;
  }

  /**
   * Creates a document (Markdown), optionally linked to issues.
   *
   * @example
   * const doc = await tracker.documents.create({ title: "Runbook", team: "ENG", issues: ["ENG-1"] });
   */
  async create(
    body: BodyOf<"createDocument">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createDocument", 201>["document"]> {
    return (await unwrap(this.http.raw.POST("/documents", { body, ...this.http.init(options) }))).document;
  }

  /**
   * Changes a document.
   *
   * @example
   * await tracker.documents.update(doc.id, { content: "# Runbook\n..." });
   */
  async update(
    id: string,
    body: BodyOf<"updateDocument">,
    options?: CallOptions,
  ): Promise<ResponseOf<"updateDocument">["document"]> {
    const call = this.http.raw.PATCH("/documents/{id}", {
      params: { path: { id } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).document;
  }

  /**
   * Deletes a document.
   *
   * @example
   * await tracker.documents.delete(doc.id);
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/documents/{id}", { params: { path: { id } }, ...this.http.init(options) }),
    );
  }
}
