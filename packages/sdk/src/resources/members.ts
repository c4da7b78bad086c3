import { type CallOptions, done, type Http, unwrap } from "../http.js";
import type { BodyOf, ResponseOf } from "../operation-types.js";

/** Membership and roles in the resolved workspace (admins only); `users.list()` lists the members. */
export class MembersApi {
  constructor(private readonly http: Http) {}

  /**
   * Changes a member's role (demoting the last admin is refused with `last_admin`) and resolves to the
   * member as they now are (the contract's `updateMember` answers them, with the update's `lastResponse`).
   *
   * @example
   * const member = await tracker.members.update(user.id, { role: "admin" });
   */
  async update(
    userId: string,
    body: BodyOf<"updateMember">,
    options?: CallOptions,
  ): Promise<ResponseOf<"updateMember">["user"]> {
    const call = this.http.raw.PATCH("/members/{userId}", {
      params: { path: { userId } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).user;
  }

  /**
   * Removes a member from the workspace; their keys stop reaching it at once.
   *
   * @example
   * await tracker.members.remove(user.id);
   */
  async remove(userId: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/members/{userId}", { params: { path: { userId } }, ...this.http.init(options) }),
    );
  }

  /**
   * Makes a link with which the member sets a new password (admins of every workspace the member is in):
   * shown once, used once, working 24 hours; e-mailed too when the server has a mail server (`emailed`).
   *
   * @example
   * const { url } = await tracker.members.resetPassword(user.id);
   */
  async resetPassword(
    userId: string,
    options?: CallOptions,
  ): Promise<ResponseOf<"createPasswordReset", 201>["reset"]> {
    const call = this.http.raw.POST("/members/{userId}/password-reset", {
      params: { path: { userId } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).reset;
  }
}
