import { type CallOptions, done, type Http, unwrap } from "../http.js";
import type { BodyOf, ResponseOf } from "../operation-types.js";

/** Saved views. */
export class ViewsApi {
  constructor(private readonly http: Http) {}

  /**
   * The saved views the caller can see.
   *
   * @example
   * const views = await tracker.views.list();
   */
  async list(options?: CallOptions): Promise<ResponseOf<"listViews">["views"]> {
    return (await unwrap(this.http.raw.GET("/views", this.http.init(options)))).views;
  }

  /**
   * Saves a view.
   *
   * @example
   * const view = await tracker.views.create({ name: "My overdue", filters: { special: ["overdue"] } });
   */
  async create(
    body: BodyOf<"createView">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createView", 201>["view"]> {
    return (await unwrap(this.http.raw.POST("/views", { body, ...this.http.init(options) }))).view;
  }

  /**
   * Changes a saved view and resolves to it as it now is (the contract's `updateView` answers it, with the
   * update's `lastResponse`).
   *
   * @example
   * const view = await tracker.views.update(view.id, { name: "Overdue (mine)" });
   */
  async update(
    id: string,
    body: BodyOf<"updateView">,
    options?: CallOptions,
  ): Promise<ResponseOf<"updateView">["view"]> {
    const call = this.http.raw.PATCH("/views/{id}", {
      params: { path: { id } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).view;
  }

  /**
   * Deletes a saved view.
   *
   * @example
   * await tracker.views.delete(view.id);
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await done(this.http.raw.DELETE("/views/{id}", { params: { path: { id } }, ...this.http.init(options) }));
  }
}
