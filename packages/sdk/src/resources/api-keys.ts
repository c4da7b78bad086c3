import { type CallOptions, done, type Http, unwrap } from "../http.js";
import type { BodyOf, ResponseOf } from "../operation-types.js";

/** The caller's own API keys. */
export class ApiKeysApi {
  constructor(private readonly http: Http) {}

  /**
   * The caller's keys that reach the resolved workspace (never their secrets).
   *
   * @example
   * for (const key of await tracker.apiKeys.list()) console.log(key.name, key.scope, key.lastUsedAt);
   */
  async list(options?: CallOptions): Promise<ResponseOf<"listApiKeys">["keys"]> {
    return (await unwrap(this.http.raw.GET("/api-keys", this.http.init(options)))).keys;
  }

  /**
   * Creates a key; its `token` is in this answer only.
   *
   * @example
   * const { token } = await tracker.apiKeys.create({ name: "CI", scope: "workspace" });
   */
  async create(
    body: BodyOf<"createApiKey">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createApiKey", 201>["key"]> {
    return (await unwrap(this.http.raw.POST("/api-keys", { body, ...this.http.init(options) }))).key;
  }

  /**
   * Deletes one of the caller's keys; it is refused from then on.
   *
   * @example
   * await tracker.apiKeys.delete(key.id);
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/api-keys/{id}", { params: { path: { id } }, ...this.http.init(options) }),
    );
  }
}
