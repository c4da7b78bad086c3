import { describe, expect, it } from "vitest";
import { useTestServer } from "../../test/harness.js";

/**
 * People signing in with a password and acting with the session cookie (openapi.yaml, "Sessions"), as a
 * browser would: the cookie is what `Set-Cookie` answered, sent back in `Cookie`.
 */
// The tests' requests come from the loopback, trusted as the balancer (TRACKER_TRUSTED_PROXIES).
const srv = useTestServer({ trustedProxies: ["loopback"] });
const PASSWORD = "correct horse battery staple";

async function call(
  method: string,
  path: string,
  options: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await srv.fetch(
    new Request(`${srv.url}/api/v1${path}`, {
      method,
      headers: {
        ...(options.cookie ? { cookie: `tracker_session=${options.cookie}` } : {}),
        ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
        ...options.headers,
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    }),
  );
  const text = await res.text();
  return { res, status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The session token a sign-in's `Set-Cookie` carries, with the cookie's attributes. */
function sessionCookie(res: Response): { token: string; attributes: string[] } {
  const line = res.headers.getSetCookie().find((c) => c.startsWith("tracker_session="));
  if (!line) throw new Error("no tracker_session cookie was set");
  const [pair, ...attributes] = line.split(";").map((p) => p.trim());
  return {
    token: pair!.slice("tracker_session=".length),
    attributes: attributes.map((a) => a.toLowerCase()),
  };
}

/** A workspace with an ENG team and a member who accepted an invite with a password. */
async function memberWithPassword() {
  const { apiKey, workspace } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const email = `person-${Math.random().toString(36).slice(2)}@example.com`;
  const invite = await srv.client(apiKey.token).POST("/invites", { body: { email, role: "member" } });
  const token = invite.data!.invite.url.split("/").pop()!;
  const accepted = await call("POST", "/invites/accept", {
    body: { token, name: "Pat", password: PASSWORD },
  });
  expect(accepted.status).toBe(201);
  return { email, workspace, adminKey: apiKey.token, memberKey: accepted.body.apiKey.token as string };
}

async function signIn(email: string, password = PASSWORD, headers: Record<string, string> = {}) {
  return call("POST", "/auth/sign-in", { body: { email, password }, headers });
}

const WRITE = { "x-requested-with": "fetch" };

describe("sessions", () => {
  it("signs a person in with the password set on accepting an invite, as a member, with a hashed session", async () => {
    const { email, workspace } = await memberWithPassword();
    const wrong = await signIn(email, "not the password at all");
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("unauthenticated");
    expect(wrong.res.headers.getSetCookie()).toEqual([]);
    const nobody = await signIn("nobody@example.com");
    expect({ status: nobody.status, detail: nobody.body.detail }).toEqual({
      status: 401,
      detail: wrong.body.detail,
    });

    const ok = await signIn(email.toUpperCase());
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      user: { email },
      via: "session",
      workspaces: [{ id: workspace.id, role: "member" }],
    });
    const cookie = sessionCookie(ok.res);
    expect(cookie.attributes).toEqual(expect.arrayContaining(["path=/", "httponly", "samesite=lax"]));
    expect(cookie.attributes).not.toContain("secure");

    // Stored only as a hash: the database holds nothing a stolen copy could sign in with.
    const rows = await srv.query<{ token_hash: string }>(
      "select s.token_hash from sessions s join users u on u.id = s.user_id where u.email = $1",
      [email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(cookie.token);
    const passwords = await srv.query<{ password_hash: string }>(
      "select password_hash from users where email = $1",
      [email],
    );
    expect(passwords[0]!.password_hash).toMatch(/^\$argon2id\$/);

    const me = await call("GET", "/auth/session", { cookie: cookie.token });
    expect(me.body).toMatchObject({ user: { email }, via: "session", expiresAt: expect.any(String) });
    const users = await call("GET", "/users", { cookie: cookie.token });
    expect(users.body.users.find((u: { isMe: boolean }) => u.isMe)).toMatchObject({ email, role: "member" });
  });

  it("marks the cookie Secure when the trusted balancer says the request came over https", async () => {
    const { email } = await memberWithPassword();
    const ok = await signIn(email, PASSWORD, { "x-forwarded-proto": "https" });
    expect(sessionCookie(ok.res).attributes).toContain("secure");
  });

  it("refuses cookie writes without X-Requested-With or from another origin, and changes nothing", async () => {
    const { email } = await memberWithPassword();
    const { token } = sessionCookie((await signIn(email)).res);
    const before = await srv.query("select count(*)::int as n from issues");
    const body = { title: "Forged", team: "ENG" };

    const bare = await call("POST", "/issues", { cookie: token, body });
    expect({ status: bare.status, code: bare.body.code }).toEqual({ status: 403, code: "csrf_failed" });
    const foreign = await call("POST", "/issues", {
      cookie: token,
      body,
      headers: { ...WRITE, origin: "https://evil.example" },
    });
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 403, code: "csrf_failed" });
    expect(await srv.query("select count(*)::int as n from issues")).toEqual(before);

    const made = await call("POST", "/issues", {
      cookie: token,
      body: { title: "Made from the board", team: "ENG", assignee: "me" },
      headers: { ...WRITE, origin: srv.url },
    });
    expect(made.status).toBe(201);
    // "me" is the signed-in person.
    expect(made.body.issue.assignee.email).toBe(email);
    // Reads need no header.
    expect((await call("GET", "/issues?team=ENG", { cookie: token })).status).toBe(200);
  });

  it("gives a new session on every sign-in: a token held before signing in is never the signed-in one", async () => {
    const { email } = await memberWithPassword();
    const planted = sessionCookie((await signIn(email)).res).token;
    const again = await signIn(email, PASSWORD, { cookie: `tracker_session=${planted}` });
    const fresh = sessionCookie(again.res).token;
    expect(fresh).not.toBe(planted);
    expect((await call("GET", "/auth/session", { cookie: planted })).status).toBe(401);
    expect((await call("GET", "/auth/session", { cookie: fresh })).status).toBe(200);
    // A token the server never issued is not adopted either.
    const made = "trs_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const withMade = await signIn(email, PASSWORD, { cookie: `tracker_session=${made}` });
    expect(sessionCookie(withMade.res).token).not.toBe(made);
    expect((await call("GET", "/auth/session", { cookie: made })).status).toBe(401);
  });

  it("signs out one session, then every session, leaving API keys working", async () => {
    const { email, memberKey } = await memberWithPassword();
    const a = sessionCookie((await signIn(email)).res).token;
    const b = sessionCookie((await signIn(email)).res).token;
    // Warm the server's cache of callers with a read that confirms its caller in band.
    expect((await call("GET", "/issues?team=ENG", { cookie: a })).status).toBe(200);

    const refused = await call("POST", "/auth/sign-out", { cookie: a });
    expect(refused.body.code).toBe("csrf_failed");
    const out = await call("POST", "/auth/sign-out", { cookie: a, headers: WRITE });
    expect(out.status).toBe(200);
    const cleared = out.res.headers.getSetCookie().find((c) => c.startsWith("tracker_session="))!;
    expect(cleared).toMatch(/^tracker_session=;/);
    expect((await call("GET", "/issues?team=ENG", { cookie: a })).status).toBe(401);
    expect((await call("GET", "/issues?team=ENG", { cookie: b })).status).toBe(200);

    const c = sessionCookie((await signIn(email)).res).token;
    const everywhere = await call("POST", "/auth/sign-out-everywhere", { cookie: c, headers: WRITE });
    expect(everywhere.body).toEqual({ ended: 2 });
    for (const token of [b, c])
      expect((await call("GET", "/auth/session", { cookie: token })).status).toBe(401);
    const byKey = await srv.client(memberKey).GET("/auth/session");
    expect(byKey.data).toMatchObject({ user: { email }, via: "key", expiresAt: null });
  });

  it("keeps an existing password when an invite to another workspace is accepted", async () => {
    const { email } = await memberWithPassword();
    const other = await srv.bootstrap();
    const invite = await srv.client(other.apiKey.token).POST("/invites", { body: { email } });
    const token = invite.data!.invite.url.split("/").pop()!;
    const accepted = await call("POST", "/invites/accept", {
      body: { token, password: "someone else's guess" },
    });
    expect(accepted.status).toBe(201);
    expect((await signIn(email, "someone else's guess")).status).toBe(401);
    const ok = await signIn(email);
    expect(ok.body.workspaces).toHaveLength(2);
  });

  it("refuses a password shorter than ten characters when accepting an invite, accepting nothing", async () => {
    const { apiKey } = await srv.bootstrap();
    const invite = await srv.client(apiKey.token).POST("/invites", { body: { email: "short@example.com" } });
    const token = invite.data!.invite.url.split("/").pop()!;
    const short = await call("POST", "/invites/accept", { body: { token, name: "Short", password: "abc" } });
    expect(short.status).toBe(400);
    expect(short.body.errors[0].path).toBe("/body/password");
    expect(await srv.query("select 1 from users where email = 'short@example.com'")).toEqual([]);
  });
});
