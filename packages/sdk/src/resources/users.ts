import { type CallOptions, type Http, unwrap } from "../http.js";
import type { ResponseOf } from "../operation-types.js";

/** The users of the resolved workspace. */
export class UsersApi {
  constructor(private readonly http: Http) {}

  /**
   * Every member of the resolved workspace, with their role; `isMe` marks the key's owner.
   *
   * @example
   * const me = (await tracker.users.list()).find((u) => u.isMe);
   */
  async list(options?: CallOptions): Promise<ResponseOf<"listUsers">["users"]> {
    return (await unwrap(this.http.raw.GET("/users", this.http.init(options)))).users;
  }
}
