import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cookieBrowser } from "../../test/browser-visit.js";
import { freePort } from "../../test/free-port.js";
import { useTestServer } from "../../test/harness.js";
import { signInAtIdp, startTestIdp, type TestIdp } from "../../test/oidc-idp.js";

/**
 * Single sign-on end to end (openapi.yaml, "Single sign-on"): a real OpenID provider started here, the
 * browser's redirects followed by hand with its cookies kept, the session then used on the API.
 */
// The provider runs on this machine, which the server reaches only when told to (net/outbound-guard.ts).
vi.stubEnv("TRACKER_OUTBOUND_ALLOW_PRIVATE", "1");
afterAll(() => {
  vi.unstubAllEnvs();
});
const srv = useTestServer();
let idp: TestIdp;

beforeAll(async () => {
  idp = await startTestIdp({
    redirectUris: [`${srv.url}/auth/sso/callback`],
    accounts: {
      ada: { email: "Ada@Acme.test", email_verified: true, name: "Ada Lovelace" },
      newcomer: { email: "grace@acme.test", email_verified: true, name: "Grace Hopper" },
      outsider: { email: "mallory@elsewhere.test", email_verified: true, name: "Mallory" },
      unverified: { email: "eve@acme.test", email_verified: false },
    },
  });
});
afterAll(() => idp?.close());

async function api(method: string, path: string, token: string, body?: unknown) {
  const res = await srv.fetch(
    new Request(`${srv.url}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A workspace whose admin has set the test provider up, allowing `acme.test` to join. */
async function workspaceWithSso(allowedDomains = ["acme.test"]) {
  const { apiKey, workspace } = await srv.bootstrap();
  const put = await api("PUT", "/sso", apiKey.token, {
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    allowedDomains,
  });
  expect(put.status).toBe(200);
  return { adminKey: apiKey.token, slug: workspace.slug, workspaceId: workspace.id };
}

/** A browser signing in through the provider as `login`: where the server finally sends it, and the browser. */
async function signInThrough(slug: string, login: string, returnTo?: string) {
  const browser = cookieBrowser(srv.url);
  const start = await browser(
    `/auth/sso/${slug}${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ""}`,
  );
  expect(start.status).toBe(302);
  const callback = await signInAtIdp(browser, start.headers.get("location")!, login);
  expect(callback.startsWith(`${srv.url}/auth/sso/callback?`)).toBe(true);
  const landed = await browser(callback);
  expect(landed.status).toBe(302);
  return { landing: landed.headers.get("location")!, browser, callback };
}

interface SessionBody {
  user: { email: string; name: string };
  workspaces: { slug: string }[];
}

async function whoAmI(browser: ReturnType<typeof cookieBrowser>) {
  const res = await browser("/api/v1/auth/session");
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as SessionBody) : undefined };
}

describe("single sign-on settings", () => {
  it("are the admins', shown without the secret, checked against the provider before they are saved", async () => {
    const { adminKey } = await workspaceWithSso();
    const read = await api("GET", "/sso", adminKey);
    expect(read.body.sso).toMatchObject({
      issuer: idp.issuer,
      clientId: "tracker",
      allowedDomains: ["acme.test"],
    });
    expect(JSON.stringify(read.body)).not.toContain(idp.clientSecret);

    // The secret may be left out once saved; a provider that does not answer is refused, nothing changed.
    const kept = await api("PUT", "/sso", adminKey, {
      issuer: idp.issuer,
      clientId: "tracker",
      enabled: true,
    });
    expect(kept.status).toBe(200);
    const nowhere = await api("PUT", "/sso", adminKey, { issuer: "http://127.0.0.1:9", clientId: "x" });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.code).toBe("invalid_request");
    const plainHttp = await api("PUT", "/sso", adminKey, { issuer: "http://idp.example.com", clientId: "x" });
    expect(plainHttp.body.errors[0].message).toMatch(/https/);
    expect((await api("GET", "/sso", adminKey)).body.sso.issuer).toBe(idp.issuer);

    const { token: memberKey } = await srv.addMember(adminKey, "member");
    expect((await api("GET", "/sso", memberKey)).body.code).toBe("admin_required");
  });

  it("reach no provider on this machine or a private network without the opt-in, and tell nothing of what is there", async () => {
    const { apiKey, workspace } = await srv.bootstrap();
    const closed = await freePort();
    // An open port that speaks no HTTP: it closes every connection at once.
    const raw = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    const rawPort = (raw.address() as net.AddressInfo).port;
    const answer = async (issuer: string) => {
      const res = await api("PUT", "/sso", apiKey.token, { issuer, clientId: "x", clientSecret: "y" });
      return { status: res.status, code: res.body.code, detail: res.body.detail, errors: res.body.errors };
    };
    try {
      vi.stubEnv("TRACKER_OUTBOUND_ALLOW_PRIVATE", "");
      const refused = {
        // A real provider, yet on this machine: refused before any request.
        provider: await answer(idp.issuer),
        closedPort: await answer(`http://127.0.0.1:${closed}`),
        openPort: await answer(`http://127.0.0.1:${rawPort}`),
        openPortTls: await answer(`https://127.0.0.1:${rawPort}`),
        localhost: await answer(`http://localhost:${rawPort}`),
        metadata: await answer("https://169.254.169.254"),
        compatible: await answer("https://[::a9fe:a9fe]"),
        private: await answer("https://10.0.0.1"),
        unresolved: await answer("https://nowhere.invalid"),
      };
      vi.stubEnv("TRACKER_OUTBOUND_ALLOW_PRIVATE", "1");
      // Allowed to try: a closed port, an open one and a TLS handshake refused all read the same.
      const failed = {
        closedPort: await answer(`http://127.0.0.1:${closed}`),
        openPort: await answer(`http://127.0.0.1:${rawPort}`),
        openPortTls: await answer(`https://127.0.0.1:${rawPort}`),
        unresolved: await answer("https://nowhere.invalid"),
      };
      const answers = [...Object.values(refused), ...Object.values(failed)];
      expect(answers[0]).toMatchObject({ status: 400, code: "invalid_request" });
      for (const [name, a] of [...Object.entries(refused), ...Object.entries(failed)])
        expect({ name, ...a }).toEqual({ name, ...answers[0] });
      const text = JSON.stringify(answers[0]);
      for (const leak of [
        "ECONNREFUSED",
        "ECONNRESET",
        "ENOTFOUND",
        "EAI_AGAIN",
        "node:",
        "node_modules",
        ".js",
        "closed",
        "socket",
        String(rawPort),
        String(closed),
      ])
        expect([leak, text.includes(leak)]).toEqual([leak, false]);
      expect(await srv.query("select 1 from sso_settings where workspace_id = $1", [workspace.id])).toEqual(
        [],
      );
    } finally {
      vi.stubEnv("TRACKER_OUTBOUND_ALLOW_PRIVATE", "1");
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it("a workspace without them has no sign-in address", async () => {
    const { workspace } = await srv.bootstrap();
    const res = await cookieBrowser(srv.url)(`/auth/sso/${workspace.slug}`);
    expect(res.status).toBe(404);
  });
});

describe("signing in through the provider", () => {
  it("signs a member in to that one workspace, where they asked to land", async () => {
    const { adminKey, slug } = await workspaceWithSso();
    const other = await srv.bootstrap();
    await srv.addMember(adminKey, "member", "ada@acme.test");
    await srv.addMember(other.apiKey.token, "member", "ada@acme.test");

    const { landing, browser } = await signInThrough(slug, "ada", `/${slug}/issues`);
    expect(landing).toBe(`/${slug}/issues`);
    const me = await whoAmI(browser);
    expect(me.body!.user.email).toBe("ada@acme.test");
    // The provider vouched for Ada in this workspace only: her other workspace is not reached.
    expect(me.body!.workspaces.map((w: { slug: string }) => w.slug)).toEqual([slug]);
    const issues = await browser(`/api/v1/issues?workspace=${other.workspace.slug}`);
    expect(issues.status).toBe(403);
  });

  it("lets people of an allowed domain join as members, and refuses others", async () => {
    const { adminKey, slug } = await workspaceWithSso();
    const { landing, browser } = await signInThrough(slug, "newcomer");
    expect(landing).toBe(`/${slug}`);
    expect((await whoAmI(browser)).body!.user).toMatchObject({
      email: "grace@acme.test",
      name: "Grace Hopper",
    });
    const users = await api("GET", "/users", adminKey);
    expect(users.body.users.find((u: { email: string }) => u.email === "grace@acme.test")?.role).toBe(
      "member",
    );

    const refused = await signInThrough(slug, "outsider");
    expect(refused.landing).toBe("/?sso_error=sso_not_allowed");
    expect((await whoAmI(refused.browser)).status).toBe(401);
    expect(await srv.query("select 1 from users where email = $1", ["mallory@elsewhere.test"])).toEqual([]);

    const unverified = await signInThrough(slug, "unverified");
    expect(unverified.landing).toBe("/?sso_error=sso_email_unverified");
  });

  it("makes a placeholder an import held for the email the person who signs in", async () => {
    const { adminKey, slug } = await workspaceWithSso();
    await srv.query("delete from users where email = 'grace@acme.test'");
    expect((await api("POST", "/teams", adminKey, { key: "ENG", name: "Engineering" })).status).toBe(201);
    const imported = await api("POST", "/import/issues", adminKey, {
      issues: [
        { source: { system: "jira", id: "1" }, team: "ENG", title: "Hers", creator: "grace@acme.test" },
      ],
    });
    expect(imported.status).toBe(200);
    expect(await srv.query("select name, placeholder from users where email = 'grace@acme.test'")).toEqual([
      { name: "grace", placeholder: true },
    ]);
    const { browser } = await signInThrough(slug, "newcomer");
    expect((await whoAmI(browser)).body!.user).toMatchObject({
      email: "grace@acme.test",
      name: "Grace Hopper",
    });
    expect(await srv.query("select name, placeholder from users where email = 'grace@acme.test'")).toEqual([
      { name: "Grace Hopper", placeholder: false },
    ]);
  });

  it("finishes a sign-in only in the browser that began it, and only once", async () => {
    const { slug } = await workspaceWithSso();
    const { callback } = await signInThrough(slug, "newcomer");
    // The same callback again, in the same browser or in another (no state cookie): refused.
    const replay = await cookieBrowser(srv.url)(callback);
    expect(replay.headers.get("location")).toBe("/?sso_error=sso_expired");

    const first = cookieBrowser(srv.url);
    const start = await first(`/auth/sso/${slug}`);
    const elsewhere = cookieBrowser(srv.url);
    const back = await signInAtIdp(elsewhere, start.headers.get("location")!, "newcomer");
    const stolen = await elsewhere(back);
    expect(stolen.headers.get("location")).toBe("/?sso_error=sso_expired");
    expect((await whoAmI(elsewhere)).status).toBe(401);
  });

  it("makes the token request through the same guard as discovery", async () => {
    const { slug } = await workspaceWithSso();
    const browser = cookieBrowser(srv.url);
    const start = await browser(`/auth/sso/${slug}`);
    const callback = await signInAtIdp(browser, start.headers.get("location")!, "newcomer");
    // Discovered with the opt-in; without it now, the provider on this machine is no longer reached.
    vi.stubEnv("TRACKER_OUTBOUND_ALLOW_PRIVATE", "");
    try {
      const landed = await browser(callback);
      expect(landed.headers.get("location")).toBe("/?sso_error=sso_failed");
    } finally {
      vi.stubEnv("TRACKER_OUTBOUND_ALLOW_PRIVATE", "1");
    }
    expect((await whoAmI(browser)).status).toBe(401);
  });

  it("a return address on another site is not followed", async () => {
    const { slug } = await workspaceWithSso();
    const { landing } = await signInThrough(slug, "newcomer", "//evil.example/steal");
    expect(landing).toBe(`/${slug}`);
  });

  it("ends its sessions when an admin turns it off", async () => {
    const { adminKey, slug } = await workspaceWithSso();
    const { browser } = await signInThrough(slug, "newcomer");
    expect((await whoAmI(browser)).status).toBe(200);
    expect((await api("DELETE", "/sso", adminKey)).status).toBe(200);
    expect((await whoAmI(browser)).status).toBe(401);
    expect((await cookieBrowser(srv.url)(`/auth/sso/${slug}`)).status).toBe(404);
  });
});
