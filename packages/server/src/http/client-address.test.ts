import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDRESS_LIMIT } from "../modules/sessions/sign-in-throttle.query.js";
import { startTestServer, type TestServer } from "../test/harness.js";
import { HSTS } from "./security-headers.js";

/**
 * Who the client is (`client-address.ts`, `TRACKER_TRUSTED_PROXIES`): the socket's peer, unless that peer
 * is a proxy the operator named. The tests' requests come from the loopback, so "trusted" is the loopback.
 */
let untrusted: TestServer;
let listed: TestServer;
let oneHop: TestServer;

beforeAll(async () => {
  [untrusted, listed, oneHop] = await Promise.all([
    startTestServer(),
    startTestServer({ trustedProxies: ["loopback"] }),
    startTestServer({ trustedProxies: 1 }),
  ]);
}, 60_000);
afterAll(() => Promise.all([untrusted?.close(), listed?.close(), oneHop?.close()]));

async function signIn(srv: TestServer, email: string, headers: Record<string, string> = {}) {
  const res = await srv.fetch(
    new Request(`${srv.url}/api/v1/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ email, password: "not the password" }),
    }),
  );
  return res.status;
}

/** Signs a new person in with their password; answers the session's `Set-Cookie`. */
async function signInForCookie(srv: TestServer, headers: Record<string, string>): Promise<string> {
  const { apiKey } = await srv.bootstrap();
  const email = `p-${Math.random().toString(36).slice(2)}@example.com`;
  const password = "the right password 42";
  const invite = await srv.client(apiKey.token).POST("/invites", { body: { email } });
  const token = invite.data!.invite.url.split("/").pop()!;
  await srv.client().POST("/invites/accept", { body: { token, name: "P", password } });
  const res = await fetch(`${srv.url}/api/v1/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  return res.headers.get("set-cookie") ?? "";
}

/** The addresses the sign-in throttle has counted failures for. */
const addresses = async (srv: TestServer) =>
  (
    await srv.query<{ key: string }>(
      "select key from sign_in_failures where key like 'address:%' order by key",
    )
  ).map((row) => row.key.slice("address:".length));

describe("without trusted proxies", () => {
  it("ignores a forged X-Forwarded-Proto: no Secure cookie, no HSTS", async () => {
    const res = await fetch(`${untrusted.url}/health`, { headers: { "x-forwarded-proto": "https" } });
    expect(res.headers.get("strict-transport-security")).toBeNull();
    const page = await fetch(`${untrusted.url}/`, { headers: { "x-forwarded-proto": "https" } });
    expect(page.headers.get("strict-transport-security")).toBeNull();
    // Before the address is held by the test below: the session cookie is not marked Secure.
    const cookie = await signInForCookie(untrusted, { "x-forwarded-proto": "https" });
    expect(cookie).not.toMatch(/;\s*secure/i);
  });

  it("keys the sign-in throttle on the socket's address: a forged X-Forwarded-For does not reset it", async () => {
    for (let i = 0; i < ADDRESS_LIMIT; i++)
      expect(
        await signIn(untrusted, `nobody-${i}@example.com`, { "x-forwarded-for": `203.0.113.${i}` }),
      ).toBe(401);
    expect(await addresses(untrusted)).toEqual(["127.0.0.1"]);
    // Held from that address, whatever the next request claims.
    expect(await signIn(untrusted, "someone@example.com", { "x-forwarded-for": "198.51.100.1" })).toBe(429);
    expect(await signIn(untrusted, "someone@example.com")).toBe(429);
  });

  it("limits OAuth registrations per socket address: a forged X-Forwarded-For does not escape it", async () => {
    let refused = 0;
    for (let n = 0; n < 30 && !refused; n++) {
      const res = await fetch(`${untrusted.url}/oauth/reg`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": `203.0.113.${n}` },
        body: JSON.stringify({
          redirect_uris: ["http://127.0.0.1:9/cb"],
          token_endpoint_auth_method: "none",
        }),
      });
      if (res.status === 429) refused = n;
      else expect(res.status).toBe(201);
    }
    // The burst is 20 per address (oauth/mount.ts), perhaps one more refilled meanwhile.
    expect(refused).toBeGreaterThanOrEqual(20);
    expect(refused).toBeLessThanOrEqual(22);
  });
});

describe("with trusted proxies listed", () => {
  it("takes the client's address from a listed proxy, and not what the client itself prepended", async () => {
    expect(await signIn(listed, "a@example.com", { "x-forwarded-for": "198.51.100.7" })).toBe(401);
    // A client that sends its own X-Forwarded-For through the proxy: the proxy appends the address it saw.
    expect(await signIn(listed, "b@example.com", { "x-forwarded-for": "10.9.9.9, 198.51.100.8" })).toBe(401);
    // The loopback hops are trusted too, so the first address past them counts.
    expect(await signIn(listed, "c@example.com", { "x-forwarded-for": "198.51.100.9, 127.0.0.1" })).toBe(401);
    expect(await signIn(listed, "d@example.com")).toBe(401);
    expect(await addresses(listed)).toEqual(["127.0.0.1", "198.51.100.7", "198.51.100.8", "198.51.100.9"]);
  });

  it("honours a listed proxy's X-Forwarded-Proto: https gets HSTS and a Secure cookie, http neither", async () => {
    const secure = await fetch(`${listed.url}/health`, { headers: { "x-forwarded-proto": "https" } });
    expect(secure.headers.get("strict-transport-security")).toBe(HSTS);
    expect(await signInForCookie(listed, { "x-forwarded-proto": "https" })).toMatch(/;\s*secure/i);
    const plain = await fetch(`${listed.url}/health`, { headers: { "x-forwarded-proto": "http" } });
    expect(plain.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("with a hop count", () => {
  it("trusts that many proxies in front, whoever they are", async () => {
    expect(await signIn(oneHop, "a@example.com", { "x-forwarded-for": "10.9.9.9, 198.51.100.20" })).toBe(401);
    expect(await addresses(oneHop)).toEqual(["198.51.100.20"]);
  });
});
