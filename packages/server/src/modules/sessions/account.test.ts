import { describe, expect, it } from "vitest";
import { databaseFingerprint } from "../../test/fingerprint.js";
import { useTestServer } from "../../test/harness.js";

/**
 * A person's own account (openapi.yaml, `updateMe`, `changePassword`, `listSessions`, `deleteSession`), as
 * a browser signed in with a password uses it: the session cookie from `Set-Cookie`, `X-Requested-With` on
 * writes. Each refusal leaves the database as it was.
 */
// The tests' requests come from the loopback, trusted as the balancer (TRACKER_TRUSTED_PROXIES).
const srv = useTestServer({ trustedProxies: ["loopback"] });
const PASSWORD = "correct horse battery staple";
const WRITE = { "x-requested-with": "fetch" };

async function call(
  method: string,
  path: string,
  options: { cookie?: string; key?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await srv.fetch(
    new Request(`${srv.url}/api/v1${path}`, {
      method,
      headers: {
        ...(options.cookie ? { cookie: `tracker_session=${options.cookie}` } : {}),
        ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
        ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
        ...(method !== "GET" && options.cookie ? WRITE : {}),
        ...options.headers,
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    }),
  );
  const text = await res.text();
  return { res, status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A member who joined with a password, and their account key. */
async function person(password = PASSWORD) {
  const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const email = `person-${Math.random().toString(36).slice(2)}@example.com`;
  const invite = await srv.client(apiKey.token).POST("/invites", { body: { email, role: "member" } });
  const token = invite.data!.invite.url.split("/").pop()!;
  const accepted = await call("POST", "/invites/accept", { body: { token, name: "Pat", password } });
  expect(accepted.status).toBe(201);
  return { email, key: accepted.body.apiKey.token as string, userId: accepted.body.user.id as string };
}

async function signIn(email: string, password = PASSWORD, userAgent = "Test Browser/1.0") {
  const res = await call("POST", "/auth/sign-in", {
    body: { email, password },
    headers: { "user-agent": userAgent },
  });
  if (res.status !== 200) return { ...res, cookie: "" };
  const line = res.res.headers.getSetCookie().find((c) => c.startsWith("tracker_session="))!;
  return { ...res, cookie: line.split(";")[0]!.slice("tracker_session=".length) };
}

describe("PATCH /me", () => {
  it("renames the caller everywhere they are shown, and refuses a blank name changing nothing", async () => {
    const pat = await person();
    const { cookie } = await signIn(pat.email);
    const renamed = await call("PATCH", "/me", { cookie, body: { name: "  Pat Smith " } });
    expect(renamed.body).toEqual({ ok: true, user: { id: pat.userId, name: "Pat Smith", email: pat.email } });
    expect((await call("GET", "/auth/session", { cookie })).body.user.name).toBe("Pat Smith");
    const users = await call("GET", "/users", { key: pat.key });
    expect(users.body.users.find((u: { isMe: boolean }) => u.isMe).name).toBe("Pat Smith");
    expect((await call("PATCH", "/me", { cookie, body: {} })).body.user.name).toBe("Pat Smith");

    const before = await databaseFingerprint(srv);
    const blank = await call("PATCH", "/me", { cookie, body: { name: "   " } });
    expect({ status: blank.status, code: blank.body.code, path: blank.body.errors[0].path }).toEqual({
      status: 400,
      code: "invalid_request",
      path: "/body/name",
    });
    const tooLong = await call("PATCH", "/me", { cookie, body: { name: "x".repeat(101) } });
    expect(tooLong.status).toBe(400);
    const unknown = await call("PATCH", "/me", { cookie, body: { email: "other@example.com" } });
    expect(unknown.status).toBe(400);
    expect(await databaseFingerprint(srv)).toBe(before);
  });
});

describe("POST /auth/password", () => {
  it("changes the password, keeps this session, ends the others; the old password no longer signs in", async () => {
    const pat = await person();
    const here = await signIn(pat.email, PASSWORD, "Here/1.0");
    const elsewhere = await signIn(pat.email, PASSWORD, "Elsewhere/2.0");
    const changed = await call("POST", "/auth/password", {
      cookie: here.cookie,
      body: { currentPassword: PASSWORD, newPassword: "a brand new password" },
    });
    expect(changed.body).toEqual({ ok: true, ended: 1 });
    expect((await call("GET", "/auth/session", { cookie: here.cookie })).status).toBe(200);
    expect((await call("GET", "/auth/session", { cookie: elsewhere.cookie })).status).toBe(401);
    // Keys stay.
    expect((await call("GET", "/auth/session", { key: pat.key })).status).toBe(200);
    expect((await signIn(pat.email, PASSWORD)).status).toBe(401);
    expect((await signIn(pat.email, "a brand new password")).status).toBe(200);
  });

  it("refuses a wrong current password with wrong_password, changing only the failure count, and throttles guessing", async () => {
    const pat = await person();
    const { cookie } = await signIn(pat.email);
    const hash = async () =>
      (await srv.query<{ h: string }>("select password_hash as h from users where id = $1", [pat.userId]))[0]!
        .h;
    const sessions = async () =>
      (
        await srv.query<{ n: number }>("select count(*)::int as n from sessions where user_id = $1", [
          pat.userId,
        ])
      )[0]!.n;
    const before = { hash: await hash(), sessions: await sessions() };
    const wrong = await call("POST", "/auth/password", {
      cookie,
      body: { currentPassword: "not the password", newPassword: "a brand new password" },
    });
    expect({ status: wrong.status, code: wrong.body.code }).toEqual({ status: 403, code: "wrong_password" });
    expect({ hash: await hash(), sessions: await sessions() }).toEqual(before);

    const short = await call("POST", "/auth/password", {
      cookie,
      body: { currentPassword: PASSWORD, newPassword: "short" },
    });
    expect({ status: short.status, code: short.body.code }).toEqual({ status: 400, code: "invalid_request" });

    // Guesses count as failed sign-ins of the account: past the limit, 429 without checking, even the right one.
    for (let i = 0; i < 4; i++)
      await call("POST", "/auth/password", {
        cookie,
        body: { currentPassword: `guess ${i}`, newPassword: "a brand new password" },
      });
    const throttled = await call("POST", "/auth/password", {
      cookie,
      body: { currentPassword: PASSWORD, newPassword: "a brand new password" },
    });
    expect({ status: throttled.status, code: throttled.body.code }).toEqual({
      status: 429,
      code: "rate_limited",
    });
    expect(Number(throttled.res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect({ hash: await hash(), sessions: await sessions() }).toEqual(before);
  });

  it("needs an admin key: a write key is refused with insufficient_access", async () => {
    const pat = await person();
    const made = await call("POST", "/api-keys", { key: pat.key, body: { name: "w", access: "write" } });
    const before = await databaseFingerprint(srv);
    const refused = await call("POST", "/auth/password", {
      key: made.body.key.token,
      body: { currentPassword: PASSWORD, newPassword: "a brand new password" },
    });
    expect({ status: refused.status, code: refused.body.code }).toEqual({
      status: 403,
      code: "insufficient_access",
    });
    expect(await databaseFingerprint(srv)).toBe(before);
  });
});

describe("GET /auth/sessions and DELETE /auth/sessions/{id}", () => {
  it("lists the person's own sessions with their browsers, marks this one, and ends one", async () => {
    const pat = await person();
    const other = await person();
    const here = await signIn(pat.email, PASSWORD, "Here/1.0");
    const there = await signIn(pat.email, PASSWORD, "There/2.0");
    await signIn(other.email, PASSWORD, "Someone else/3.0");
    const listed = await call("GET", "/auth/sessions", { cookie: here.cookie });
    expect(listed.status).toBe(200);
    const sessions = listed.body.sessions as { id: string; userAgent: string; current: boolean }[];
    expect(sessions.map((s) => [s.userAgent, s.current]).sort()).toEqual([
      ["Here/1.0", true],
      ["There/2.0", false],
    ]);
    // With a key: the same sessions, none current.
    const byKey = await call("GET", "/auth/sessions", { key: pat.key });
    expect(byKey.body.sessions.map((s: { current: boolean }) => s.current)).toEqual([false, false]);

    const thereId = sessions.find((s) => s.userAgent === "There/2.0")!.id;
    expect((await call("DELETE", `/auth/sessions/${thereId}`, { cookie: here.cookie })).body).toEqual({
      ok: true,
    });
    expect((await call("GET", "/auth/session", { cookie: there.cookie })).status).toBe(401);
    expect((await call("GET", "/auth/session", { cookie: here.cookie })).status).toBe(200);

    // Ending this one clears its cookie.
    const hereId = sessions.find((s) => s.current)!.id;
    const self = await call("DELETE", `/auth/sessions/${hereId}`, { cookie: here.cookie });
    expect(self.status).toBe(200);
    expect(self.res.headers.getSetCookie().some((c) => /^tracker_session=;/.test(c))).toBe(true);
    expect((await call("GET", "/auth/session", { cookie: here.cookie })).status).toBe(401);
  });

  it("answers 404 for another person's session, an ended one or an unknown id, changing nothing", async () => {
    const pat = await person();
    const other = await person();
    await signIn(other.email, PASSWORD, "Someone else/3.0");
    const theirs = (await call("GET", "/auth/sessions", { key: other.key })).body.sessions[0].id as string;
    const before = await databaseFingerprint(srv);
    for (const id of [theirs, "00000000-0000-4000-8000-000000000000", "not-a-session"]) {
      const res = await call("DELETE", `/auth/sessions/${id}`, { key: pat.key });
      expect({ id, status: res.status, code: res.body.code }).toEqual({ id, status: 404, code: "not_found" });
    }
    expect(await databaseFingerprint(srv)).toBe(before);
    expect((await call("GET", "/auth/sessions", { key: pat.key })).body.sessions).toEqual([]);
  });
});
