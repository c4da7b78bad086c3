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

  it("makes a password reset link for a member, which sets their password", async () => {
    const member = await s.server.addMember(s.token, "member");
    const made = await s.run(["members", "reset-password", member.email]);
    expect(made.code).toBe(0);
    const url = made.stdout.trim();
    expect(url).toMatch(/\/reset\/rst_[\w-]+$/);
    expect(made.stderr).toMatch(new RegExp(`^Give this link to ${member.email}: it works once, until `));
    const set = await fetch(`${s.server.url}/api/v1/auth/password-reset`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: url.split("/").pop(), password: "a brand new password" }),
    });
    expect(set.status).toBe(200);
    const signIn = await fetch(`${s.server.url}/api/v1/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: member.email, password: "a brand new password" }),
    });
    expect(signIn.status).toBe(200);
    // A member may not make one.
    const refused = await s.run(["members", "reset-password", s.user.email], {
      env: { TRACKER_API_KEY: member.token },
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^admin_required: /);
  });
});
