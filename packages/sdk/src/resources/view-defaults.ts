import { type CallOptions, done, type Http, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf } from "../operation-types.js";

/** Per-view display defaults, for the caller or for the whole workspace. */
export class ViewDefaultsApi {
  constructor(private readonly http: Http) {}

  /**
   * The defaults that apply to the caller, optionally for one view key.
   *
   * @example
   * const defaults = await tracker.viewDefaults.list({ viewKey: "issues:team:ENG" });
   */
  async list(
    query: QueryOf<"listViewDefaults"> = {},
    options?: CallOptions,
  ): Promise<ResponseOf<"listViewDefaults">["defaults"]> {
    return (
      await unwrap(this.http.raw.GET("/view-defaults", { params: { query }, ...this.http.init(options) }))
    ).defaults;
  }

  /**
   * Sets the defaults of a view key (the caller's own, or `scope: "workspace"` for everyone).
   *
   * @example
   * await tracker.viewDefaults.put({ viewKey: "my-issues", sort: "-updated" });
   */
  async put(
    body: BodyOf<"putViewDefault">,
    options?: CallOptions,
  ): Promise<ResponseOf<"putViewDefault">["default"]> {
    return (await unwrap(this.http.raw.PUT("/view-defaults", { body, ...this.http.init(options) }))).default;
  }

  /**
   * Removes the defaults of a view key.
   *
   * @example
   * await tracker.viewDefaults.delete({ viewKey: "my-issues" });
   */
  async delete(query: QueryOf<"deleteViewDefault">, options?: CallOptions): Promise<void> {
    await done(this.http.raw.DELETE("/view-defaults", { params: { query }, ...this.http.init(options) }));
  }
}
