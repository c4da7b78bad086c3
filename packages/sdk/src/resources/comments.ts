import { type CallOptions, done, type Http, unwrap } from "../http.js";
import type { BodyOf, ResponseOf } from "../operation-types.js";

/** Comments on an issue (named by identifier, `ENG-123`). */
export class CommentsApi {
  constructor(private readonly http: Http) {}

  /**
   * The comments, oldest first.
   *
   * @example
   * const comments = await tracker.comments.list("ENG-123");
   */
  async list(identifier: string, options?: CallOptions): Promise<ResponseOf<"listComments">["comments"]> {
    const call = this.http.raw.GET("/issues/{identifier}/comments", {
      params: { path: { identifier } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).comments;
  }

  /**
   * Comments on an issue (Markdown).
   *
   * @example
   * await tracker.comments.create("ENG-123", { body: "Fixed in #42." });
   */
  async create(
    identifier: string,
    body: BodyOf<"createComment">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createComment", 201>["comment"]> {
    const call = this.http.raw.POST("/issues/{identifier}/comments", {
      params: { path: { identifier } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).comment;
  }

  /**
   * Edits one of the caller's comments.
   *
   * @example
   * await tracker.comments.update("ENG-123", comment.id, { body: "Fixed in #43." });
   */
  async update(
    identifier: string,
    commentId: string,
    body: BodyOf<"updateComment">,
    options?: CallOptions,
  ): Promise<ResponseOf<"updateComment">["comment"]> {
    const call = this.http.raw.PATCH("/issues/{identifier}/comments/{commentId}", {
      params: { path: { identifier, commentId } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).comment;
  }

  /**
   * An edited comment's earlier bodies, oldest first, each with when it was written and replaced.
   *
   * @example
   * for (const r of await tracker.comments.revisions("ENG-123", comment.id)) console.log(r.replacedAt, r.body);
   */
  async revisions(
    identifier: string,
    commentId: string,
    options?: CallOptions,
  ): Promise<ResponseOf<"listCommentRevisions">["revisions"]> {
    const call = this.http.raw.GET("/issues/{identifier}/comments/{commentId}/revisions", {
      params: { path: { identifier, commentId } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).revisions;
  }

  /**
   * Deletes a comment.
   *
   * @example
   * await tracker.comments.delete("ENG-123", comment.id);
   */
  async delete(identifier: string, commentId: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/issues/{identifier}/comments/{commentId}", {
        params: { path: { identifier, commentId } },
        ...this.http.init(options),
      }),
    );
  }
}
