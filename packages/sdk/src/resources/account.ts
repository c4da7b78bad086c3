import { type CallOptions, done, type Http, unwrap } from "../http.js";
import type { BodyOf, ResponseOf } from "../operation-types.js";

/**
 * The caller's own account, in every workspace of theirs: their name and password, the browsers they are
 * signed in from, the apps they authorised through OAuth, and how they are told of notifications.
 */
export class AccountApi {
  constructor(private readonly http: Http) {}

  /**
   * Changes the caller's name (1 to 100 characters). Resolves to the person as they now are.
   *
   * @example
   * const me = await tracker.account.update({ name: "Ada King" });
   */
  async update(body: BodyOf<"updateMe">, options?: CallOptions): Promise<ResponseOf<"updateMe">["user"]> {
    return (await unwrap(this.http.raw.PATCH("/me", { body, ...this.http.init(options) }))).user;
  }

  /**
   * Changes the password, given the current one: a wrong one is 403 `wrong_password` (and counts as a failed
   * sign-in). The calling session stays signed in; every other session of the person ends. Resolves to how
   * many were ended. Needs an `admin` key when called with a key.
   *
   * @example
   * await tracker.account.changePassword({ currentPassword: old, newPassword: "a long new password" });
   */
  async changePassword(body: BodyOf<"changePassword">, options?: CallOptions): Promise<number> {
    return (await unwrap(this.http.raw.POST("/auth/password", { body, ...this.http.init(options) }))).ended;
  }

  /**
   * The browsers the person is signed in from, most recently seen first; `current` marks the calling one.
   *
   * @example
   * for (const s of await tracker.account.sessions()) console.log(s.userAgent, s.lastSeenAt, s.current);
   */
  async sessions(options?: CallOptions): Promise<ResponseOf<"listSessions">["sessions"]> {
    return (await unwrap(this.http.raw.GET("/auth/sessions", this.http.init(options)))).sessions;
  }

  /**
   * Signs one session out (404 for one that is not the person's).
   *
   * @example
   * await tracker.account.endSession(session.id);
   */
  async endSession(id: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/auth/sessions/{id}", { params: { path: { id } }, ...this.http.init(options) }),
    );
  }

  /**
   * Signs every session of the person out (their API keys stay). Resolves to how many were ended.
   *
   * @example
   * const ended = await tracker.account.signOutEverywhere();
   */
  async signOutEverywhere(options?: CallOptions): Promise<number> {
    return (await unwrap(this.http.raw.POST("/auth/sign-out-everywhere", this.http.init(options)))).ended;
  }

  /**
   * The apps the person authorised through OAuth, for the workspaces the caller reaches: the app as it
   * named itself, the workspace, the access level and when.
   *
   * @example
   * for (const g of await tracker.account.apps()) console.log(g.client.name, g.workspace.slug, g.access);
   */
  async apps(options?: CallOptions): Promise<ResponseOf<"listOAuthGrants">["grants"]> {
    return (await unwrap(this.http.raw.GET("/oauth-grants", this.http.init(options)))).grants;
  }

  /**
   * Revokes an app's grant: its tokens stop working at once. Needs an `admin` key when called with a key.
   *
   * @example
   * await tracker.account.revokeApp(grant.id);
   */
  async revokeApp(id: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/oauth-grants/{id}", { params: { path: { id } }, ...this.http.init(options) }),
    );
  }

  /**
   * How the person is told of notifications: `none` (the inbox only), `instant` or `daily` e-mail, whether
   * the deployment can send e-mail, and the daily e-mail's hour (UTC).
   *
   * @example
   * const { email, emailAvailable } = await tracker.account.notificationSettings();
   */
  async notificationSettings(
    options?: CallOptions,
  ): Promise<ResponseOf<"getNotificationSettings">["settings"]> {
    return (await unwrap(this.http.raw.GET("/my/notification-settings", this.http.init(options)))).settings;
  }

  /**
   * Chooses how the person is told of notifications.
   *
   * @example
   * await tracker.account.setNotificationSettings({ email: "instant" });
   */
  async setNotificationSettings(
    body: BodyOf<"putNotificationSettings">,
    options?: CallOptions,
  ): Promise<ResponseOf<"putNotificationSettings">["settings"]> {
    const call = this.http.raw.PUT("/my/notification-settings", { body, ...this.http.init(options) });
    return (await unwrap(call)).settings;
  }
}
