import { done, type Http, unwrap } from "../http.js";
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
  async list(): Promise<ResponseOf<"listViews">["views"]> {
    return (await unwrap(this.http.raw.GET("/views"))).views;
  }

  /**
   * Saves a view.
   *
   * @example
   * const view = await tracker.views.create({ name: "My overdue", filters: { special: ["overdue"] } });
   */
  async create(body: BodyOf<"createView">): Promise<ResponseOf<"createView", 201>["view"]> {
    return (await unwrap(this.http.raw.POST("/views", { body: body }))).view;
  }

  /**
   * Changes a saved view.
   *
   * @example
   * await tracker.views.update(view.id, { name: "Overdue (mine)" });
   */
  async update(id: string, body: BodyOf<"updateView">): Promise<void> {
    await done(this.http.raw.PATCH("/views/{id}", { params: { path: { id } }, body: body }));
  }

  /**
   * Deletes a saved view.
   *
   * @example
   * await tracker.views.delete(view.id);
   */
  async delete(id: string): Promise<void> {
    await done(this.http.raw.DELETE("/views/{id}", { params: { path: { id } } }));
  }
}
