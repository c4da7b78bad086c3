import { done, type Http } from "../http.js";
import type { BodyOf } from "../operation-types.js";

/** Membership and roles in the resolved workspace (admins only). */
export class MembersApi {
  constructor(private readonly http: Http) {}

  /**
   * Changes a member's role; demoting the last admin is refused with `last_admin`.
   *
   * @example
   * await tracker.members.update(user.id, { role: "admin" });
   */
  async update(userId: string, body: BodyOf<"updateMember">): Promise<void> {
    await done(
      this.http.raw.PATCH("/members/{userId}", {
        params: { path: { userId } },
        body: body,
      }),
    );
  }

  /**
   * Removes a member from the workspace; their keys stop reaching it at once.
   *
   * @example
   * await tracker.members.remove(user.id);
   */
  async remove(userId: string): Promise<void> {
    await done(this.http.raw.DELETE("/members/{userId}", { params: { path: { userId } } }));
  }
}
