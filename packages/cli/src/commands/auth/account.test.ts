import { describe, expect, it } from "vitest";
import { json, useSession } from "../../test/binary.js";

// `tracker auth sessions`, `auth apps` and `auth revoke-app`: the built binary against a real server.
const s = useSession();

describe("tracker auth sessions and apps", () => {
  it("lists the browsers the person signed in from", async () => {
    // A password, then a sign-in from a browser, as the board makes one.
    const reset = await fetch(`${s.server.url}/api/v1/members/${s.user.id}/password-reset`, {
      method: "POST",
      headers: { authorization: `Bearer ${s.token}` },
    });
    const token = ((await reset.json()) as { reset: { url: string } }).reset.url.split("/").pop()!;
    await fetch(`${s.server.url}/api/v1/auth/password-reset`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token, password: "the admin's long password" }),
    });
    const signIn = await fetch(`${s.server.url}/api/v1/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "Test Browser/1.0" },
      body: JSON.stringify({ email: s.user.email, password: "the admin's long password" }),
    });
    expect(signIn.status).toBe(200);
    const sessions = json<{ userAgent: string; current: boolean }[]>(
      await s.run(["auth", "sessions", "--json"]),
    );
    expect(sessions.map((x) => [x.userAgent, x.current])).toEqual([["Test Browser/1.0", false]]);
  });

  it("lists no apps, and refuses to revoke one that is not the person's", async () => {
    expect(json(await s.run(["auth", "apps", "--json"]))).toEqual([]);
    const res = await s.run(["auth", "revoke-app", "00000000-0000-4000-8000-000000000000", "--yes"]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("not_found:");
  });
});
