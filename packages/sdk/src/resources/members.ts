import { type CallOptions, done, type Http, unwrap } from "../http.js";
import type { BodyOf, Schemas } from "../operation-types.js";
import { attachResponse, responseOf } from "../response.js";

/** Membership and roles in the resolved workspace (admins only); `users.list()` lists the members. */
export class MembersApi {
  constructor(private readonly http: Http) {}

  /**
   * Changes a member's role (demoting the last admin is refused with `last_admin`) and resolves to the
   * member as they now are. (The contract's `updateMember` answers only `{ ok: true }`, so the member is
   * read back from `GET /users`.)
   *
   * @example
   * const member = await tracker.members.update(user.id, { role: "admin" });
   */
  async update(
    userId: string,
    body: BodyOf<"updateMember">,
    options?: CallOptions,
  ): Promise<Schemas["User"]> {
    const ok = await unwrap(
      this.http.raw.PATCH("/members/{userId}", {
        params: { path: { userId } },
        body,
        ...this.http.init(options),
      }),
    );
    const call = this.http.raw.GET("/users", this.http.init({ ...options, idempotencyKey: undefined }));
    const user = (await unwrap(call)).users.find((u) => u.id === userId);
    if (!user) throw new Error(`Member ${userId} was updated but is no longer in the workspace.`);
    return attachResponse({ ...user }, responseOf(ok)!);
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
}
