import { describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";

// `tracker members`: the built binary against a real server.
const s = useSession();
const _tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "100" };

describe("tracker members list, role and remove; users list", () => {
  it("lists members and users, changes a role and removes a member", async () => {
    const guest = await s.server.addMember(s.token, "guest");
    const listed = await s.run(["members", "list"]);
    expect(rows(listed)).toContainEqual([guest.email.split("@")[0]!, guest.email, "guest"]);
    expect((await s.run(["users", "list", "--jq", ".[] | select(.isMe) | .email"])).stdout).toBe(
      `${s.user.email}\n`,
    );
    expect((await s.run(["members", "role", guest.email, "member"])).stderr).toBe(
      `${guest.email} is now a member\n`,
    );
    expect(
      json(
        await s.run([
          "members",
          "list",
          "--json",
          "email,role",
          "--jq",
          `.[] | select(.email == "${guest.email}")`,
        ]),
      ),
    ).toEqual({
      email: guest.email,
      role: "member",
    });
    const badRole = await s.run(["members", "role", guest.email, "owner"]);
    expect(badRole.code).toBe(2);
    expect((await s.run(["members", "remove", guest.email, "--yes"])).code).toBe(0);
    const gone = await s.run(["teams", "list"], { env: { TRACKER_API_KEY: guest.token } });
    expect(gone.code).toBe(1);
    const lastAdmin = await s.run(["members", "role", "me", "member"]);
    expect(lastAdmin.code).toBe(1);
    expect(lastAdmin.stderr).toMatch(/^last_admin: /);
  });
});
