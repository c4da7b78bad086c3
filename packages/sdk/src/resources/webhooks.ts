import { type CallOptions, done, type Http, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf } from "../operation-types.js";

/**
 * The workspace's outbound webhook endpoints and their delivery logs (admins only). Check what an endpoint
 * receives with {@link verifyWebhook}.
 */
export class WebhooksApi {
  constructor(private readonly http: Http) {}

  /**
   * The workspace's endpoints, oldest first (never their secrets).
   *
   * @example
   * for (const hook of await tracker.webhooks.list()) console.log(hook.url, hook.enabled);
   */
  async list(options?: CallOptions): Promise<ResponseOf<"listWebhooks">["webhooks"]> {
    return (await unwrap(this.http.raw.GET("/webhooks", this.http.init(options)))).webhooks;
  }

  /**
   * Registers an endpoint; the signing `secret` is in this answer only.
   *
   * @example
   * const { webhook, secret } = await tracker.webhooks.create({ url: "https://ci.example.com/hook", events: ["issue"] });
   */
  async create(
    body: BodyOf<"createWebhook">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createWebhook", 201>> {
    return unwrap(this.http.raw.POST("/webhooks", { body, ...this.http.init(options) }));
  }

  /**
   * One endpoint.
   *
   * @example
   * const hook = await tracker.webhooks.get(id);
   */
  async get(id: string, options?: CallOptions): Promise<ResponseOf<"getWebhook">["webhook"]> {
    return (
      await unwrap(
        this.http.raw.GET("/webhooks/{id}", { params: { path: { id } }, ...this.http.init(options) }),
      )
    ).webhook;
  }

  /**
   * Changes an endpoint's URL, events or team, or enables or disables it.
   *
   * @example
   * await tracker.webhooks.update(id, { enabled: true });
   */
  async update(
    id: string,
    body: BodyOf<"updateWebhook">,
    options?: CallOptions,
  ): Promise<ResponseOf<"updateWebhook">["webhook"]> {
    return (
      await unwrap(
        this.http.raw.PATCH("/webhooks/{id}", { params: { path: { id } }, body, ...this.http.init(options) }),
      )
    ).webhook;
  }

  /**
   * Deletes an endpoint with its outbox and log.
   *
   * @example
   * await tracker.webhooks.delete(id);
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/webhooks/{id}", { params: { path: { id } }, ...this.http.init(options) }),
    );
  }

  /**
   * The endpoint's delivery log, newest first.
   *
   * @example
   * const failed = await tracker.webhooks.deliveries(id, { status: "failed" });
   */
  async deliveries(
    id: string,
    query: QueryOf<"listWebhookDeliveries"> = {},
    options?: CallOptions,
  ): Promise<ResponseOf<"listWebhookDeliveries">["deliveries"]> {
    return (
      await unwrap(
        this.http.raw.GET("/webhooks/{id}/deliveries", {
          params: { path: { id }, query },
          ...this.http.init(options),
        }),
      )
    ).deliveries;
  }

  /**
   * Sends a delivery again (same `webhook-id`), as a new delivery.
   *
   * @example
   * const again = await tracker.webhooks.redeliver(id, delivery.id);
   */
  async redeliver(
    id: string,
    deliveryId: string,
    options?: CallOptions,
  ): Promise<ResponseOf<"redeliverWebhook", 201>["delivery"]> {
    return (
      await unwrap(
        this.http.raw.POST("/webhooks/{id}/deliveries/{deliveryId}/redeliver", {
          params: { path: { id, deliveryId } },
          ...this.http.init(options),
        }),
      )
    ).delivery;
  }
}
