import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startTestIdp } from "@tracker/server/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { seriousViolations } from "./test/axe.js";
import { launchChromium } from "./test/browser.js";
import { addPasswordUser, type BoardSession, openBoardSession, signInWithPassword } from "./test/session.js";

// The OAuth consent page (`/consent/:uid`) in a real Chromium against a real server: an app registers,
// sends the browser to authorize, the person signs in (their key on the page, or the session of a
// password or single sign-on), sees the app, the access and the workspace, and allows or denies; the app
// gets a code and a token that works, as that person.

// The test's OpenID provider listens on this machine.
vi.stubEnv("TRACKER_OUTBOUND_ALLOW_PRIVATE", "1");
let REDIRECT = "";
let session: BoardSession;
let page: Page;
/** The app's redirect URI: a server of the test's that answers anything. */
let appServer: Server;

beforeAll(async () => {
  session = await openBoardSession("Acme Consent");
  page = await session.browser.context.newPage();
  appServer = createServer((_, res) => res.end("app"));
  await new Promise<void>((resolve) => appServer.listen(0, "127.0.0.1", resolve));
  REDIRECT = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  appServer?.close();
  await session?.close();
  vi.unstubAllEnvs();
});

async function authorizeUrl(scope: string) {
  const meta = (await (
    await fetch(`${session.server.url}/.well-known/oauth-authorization-server`)
  ).json()) as {
    authorization_endpoint: string;
    registration_endpoint: string;
    token_endpoint: string;
  };
  const reg = await fetch(meta.registration_endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Deploy Helper",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
    }),
  });
  const { client_id } = (await reg.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const url = new URL(meta.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id,
    response_type: "code",
    redirect_uri: REDIRECT,
    scope,
    state: "xyz",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  return { url: url.href, client_id, verifier, tokenEndpoint: meta.token_endpoint };
}

type App = Awaited<ReturnType<typeof authorizeUrl>>;

/** The app's code for its tokens (PKCE), as the app's server would. */
async function redeem(app: App, code: string): Promise<{ access_token: string; scope: string }> {
  const token = await fetch(app.tokenEndpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: app.client_id,
      code_verifier: app.verifier,
    }).toString(),
  });
  expect(token.status).toBe(200);
  return (await token.json()) as { access_token: string; scope: string };
}

/** The person the token acts for, by name, and whether a write with it lands. */
async function actsAs(accessToken: string, title: string): Promise<string> {
  const headers = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
  const res = await fetch(`${session.server.url}/api/v1/issues`, {
    method: "POST",
    headers,
    body: JSON.stringify({ team: "ENG", title }),
  });
  expect(res.status).toBe(201);
  const who = await fetch(`${session.server.url}/api/v1/auth/session`, { headers });
  return ((await who.json()) as { user: { name: string } }).user.name;
}

/** On the consent page, signed in: allows for the workspace chosen, and returns the app's code. */
async function allow(on: Page): Promise<string> {
  await expect.poll(() => on.getByLabel("Workspace it may reach").inputValue()).toBe(session.ws);
  await on.getByRole("button", { name: "Allow" }).click();
  await on.waitForURL((url) => url.href.startsWith(REDIRECT));
  return new URL(on.url()).searchParams.get("code")!;
}

describe("the OAuth consent page", () => {
  test("names the app, the access and the workspace; allowing gives the app a working token", async () => {
    const app = await authorizeUrl("write");
    await page.goto(app.url);
    await expect.poll(() => page.url()).toMatch(/\/consent\/[\w-]+$/);
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("Allow Deploy Helper to use Tracker as you?");
    await expect
      .poll(() => page.getByRole("list", { name: "Access asked for" }).textContent())
      .toContain("write");
    await page.getByText("Use an API key").click();
    await page.getByLabel("API key").fill(session.token);
    await page.getByRole("button", { name: "Sign in with the key" }).click();
    await expect.poll(() => page.getByLabel("Workspace it may reach").inputValue()).toBe(session.ws);
    // Accessible as the board's other screens are (WCAG 2.1 A/AA, axe-core).
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL((url) => url.href.startsWith(REDIRECT));
    const back = new URL(page.url());
    expect(back.searchParams.get("state")).toBe("xyz");
    const code = back.searchParams.get("code")!;

    const { access_token, scope } = await redeem(app, code);
    expect(scope).toBe("write");
    const res = await fetch(`${session.server.url}/api/v1/issues`, {
      method: "POST",
      headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ team: "ENG", title: "Filed by the app" }),
    });
    expect(res.status).toBe(201);
    expect((await session.tracker.issues.list({ team: "ENG" })).items.map((i) => i.title)).toContain(
      "Filed by the app",
    );
  });

  test("denying sends the browser back to the app with access_denied", async () => {
    const app = await authorizeUrl("read");
    await page.goto(app.url);
    // Signed in on this page before: the key is remembered.
    await page.getByRole("button", { name: "Deny" }).click();
    await page.waitForURL((url) => url.href.startsWith(REDIRECT));
    expect(new URL(page.url()).searchParams.get("error")).toBe("access_denied");
  });

  test("a person signed in with a password approves with their session", async () => {
    const grace = await addPasswordUser(session, "Grace Hopper");
    // A browser of their own: signed in on the board by the cookie, no key anywhere.
    const browser = await launchChromium();
    try {
      const own = await browser.context.newPage();
      await signInWithPassword(session, own, grace);
      const app = await authorizeUrl("write");
      await own.goto(app.url);
      await expect
        .poll(() => own.getByRole("heading", { level: 1 }).textContent())
        .toBe("Allow Deploy Helper to use Tracker as you?");
      const code = await allow(own);
      const { access_token, scope } = await redeem(app, code);
      expect(scope).toBe("write");
      expect(await actsAs(access_token, "Filed for Grace")).toBe("Grace Hopper");

      // Signed out, the page signs them in with the password itself, then asks.
      await own.context().clearCookies();
      await own.evaluate(() => localStorage.clear());
      const again = await authorizeUrl("read");
      await own.goto(again.url);
      await own.getByLabel("Email").fill(grace.email);
      await own.getByLabel("Password", { exact: true }).fill(grace.password);
      await own.getByRole("button", { name: "Sign in", exact: true }).click();
      const second = await redeem(again, await allow(own));
      expect(second.scope).toBe("read");
    } finally {
      await browser.close();
    }
  });

  test("a person who signs in through the workspace's OpenID provider approves with that session", async () => {
    const idp = await startTestIdp({
      redirectUris: [`${session.server.url}/auth/sso/callback`],
      accounts: { linus: { email: "linus@acme.test", email_verified: true, name: "Linus Torvalds" } },
    });
    const browser = await launchChromium();
    try {
      const put = await session.tracker.raw.PUT("/sso", {
        body: {
          issuer: idp.issuer,
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
          allowedDomains: ["acme.test"],
        },
      });
      expect(put.response.status).toBe(200);
      const own = await browser.context.newPage();
      const app = await authorizeUrl("write");
      // Not signed in anywhere: single sign-on from the consent page, and back to it.
      await own.goto(app.url);
      await own.getByLabel("Workspace", { exact: true }).fill(session.ws);
      await own.getByRole("button", { name: "Continue with single sign-on" }).click();
      await own.waitForURL((url) => url.href.startsWith(`${idp.issuer}/interaction/`));
      await own.locator('input[name="login"]').fill("linus");
      await own.locator('input[name="password"]').fill("anything");
      await own.getByRole("button", { name: "Sign-in" }).click();
      await own.getByRole("button", { name: "Continue" }).click();
      await own.waitForURL(/\/consent\/[\w-]+$/);
      const { access_token } = await redeem(app, await allow(own));
      expect(await actsAs(access_token, "Filed for Linus")).toBe("Linus Torvalds");
    } finally {
      await browser.close();
      await idp.close();
    }
  });
});
