import { type CallOptions, done, type Http, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf } from "../operation-types.js";

/** Workspace labels, with rename, delete and merge that keep saved filters consistent. */
export class LabelsApi {
  constructor(private readonly http: Http) {}

  /**
   * The workspace's labels; with `counts: "1"` (admins), how many issues carry each.
   *
   * @example
   * const labels = await tracker.labels.list({ counts: "1" });
   */
  async list(
    query: QueryOf<"listLabels"> = {},
    options?: CallOptions,
  ): Promise<ResponseOf<"listLabels">["labels"]> {
    return (await unwrap(this.http.raw.GET("/labels", { params: { query }, ...this.http.init(options) })))
      .labels;
  }

  /**
   * Creates a label.
   *
   * @example
   * const bug = await tracker.labels.create({ name: "bug", color: "#e5484d" });
   */
  async create(
    body: BodyOf<"createLabel">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createLabel", 201>["label"]> {
    return (await unwrap(this.http.raw.POST("/labels", { body, ...this.http.init(options) }))).label;
  }

  /**
   * Renames or recolors a label (by id or name).
   *
   * @example
   * await tracker.labels.update("bug", { name: "defect" });
   */
  async update(
    id: string,
    body: BodyOf<"updateLabel">,
    options?: CallOptions,
  ): Promise<ResponseOf<"updateLabel">["label"]> {
    const call = this.http.raw.PATCH("/labels/{id}", {
      params: { path: { id } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).label;
  }

  /**
   * Deletes a label, taking it off every issue.
   *
   * @example
   * await tracker.labels.delete("wontfix");
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/labels/{id}", { params: { path: { id } }, ...this.http.init(options) }),
    );
  }

  /**
   * Merges a label into another: its issues carry the target instead, and it is deleted.
   *
   * @example
   * const { moved, collapsed } = await tracker.labels.merge("defect", { into: "bug" });
   */
  async merge(
    id: string,
    body: BodyOf<"mergeLabel">,
    options?: CallOptions,
  ): Promise<ResponseOf<"mergeLabel">> {
    return unwrap(
      this.http.raw.POST("/labels/{id}/merge", {
        params: { path: { id } },
        body,
        ...this.http.init(options),
      }),
    );
  }
}
