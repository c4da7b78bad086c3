import { type CallOptions, type Http, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf } from "../operation-types.js";

/** The caller's inbox: notifications about issues they created, are assigned to, follow or are mentioned on. */
export class InboxApi {
  constructor(private readonly http: Http) {}

  /**
   * The caller's notifications, newest first, and how many are unread.
   *
   * @example
   * const { notifications, unreadCount } = await tracker.inbox.list({ unread: "true" });
   */
  async list(
    query: QueryOf<"listNotifications"> = {},
    options?: CallOptions,
  ): Promise<ResponseOf<"listNotifications">> {
    return unwrap(this.http.raw.GET("/my/notifications", { params: { query }, ...this.http.init(options) }));
  }

  /**
   * Marks notifications read (`read: false`: unread); without `ids`, all of them read. Resolves to the
   * unread count after.
   *
   * @example
   * await tracker.inbox.markRead({ ids: [notification.id] });
   * await tracker.inbox.markRead({}); // all
   */
  async markRead(body: BodyOf<"markNotificationsRead"> = {}, options?: CallOptions): Promise<number> {
    const call = this.http.raw.POST("/my/notifications/read", { body, ...this.http.init(options) });
    return (await unwrap(call)).unreadCount;
  }
}
