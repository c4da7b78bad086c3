import { type CallOptions, done, type Http, unwrap } from "../http.js";
import type { BodyOf, ResponseOf } from "../operation-types.js";

/** Invitations to the resolved workspace. */
export class InvitesApi {
  constructor(private readonly http: Http) {}

  /**
   * The workspace's pending invites.
   *
   * @example
   * const pending = await tracker.invites.list();
   */
  async list(options?: CallOptions): Promise<ResponseOf<"listInvites">["invites"]> {
    return (await unwrap(this.http.raw.GET("/invites", this.http.init(options)))).invites;
  }

  /**
   * Invites someone by email; the answer's `url` (shown once) ends with the token to accept.
   *
   * @example
   * const { url } = await tracker.invites.create({ email: "ada@example.com", role: "member" });
   */
  async create(
    body: BodyOf<"createInvite">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createInvite", 201>["invite"]> {
    return (await unwrap(this.http.raw.POST("/invites", { body, ...this.http.init(options) }))).invite;
  }

  /**
   * Withdraws an invite.
   *
   * @example
   * await tracker.invites.delete(invite.id);
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/invites/{id}", { params: { path: { id } }, ...this.http.init(options) }),
    );
  }

  /**
   * Accepts an invite (no API key needed): answers the workspace, the user and their first key's token.
   *
   * @example
   * const token = new URL(inviteUrl).pathname.split("/").pop()!;
   * const { apiKey } = await createTracker().invites.accept({ token, name: "Ada" });
   */
  async accept(
    body: BodyOf<"acceptInvite">,
    options?: CallOptions,
  ): Promise<ResponseOf<"acceptInvite", 201>> {
    return unwrap(this.http.raw.POST("/invites/accept", { body, ...this.http.init(options) }));
  }
}
