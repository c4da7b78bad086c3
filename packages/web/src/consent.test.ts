import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./test/axe.js";
import { type BoardSession, openBoardSession } from "./test/session.js";

// The OAuth consent page (`/consent/:uid`) in a real Chromium against a real server: an app registers,
// sends the browser to authorize, the person signs in with their key on the page, sees the app, the
// access and the workspace, and allows or denies; the app gets a code and a token that works.
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
    await page.getByLabel("Sign in with your API key to answer").fill(session.token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByLabel("Workspace it may reach").inputValue()).toBe(session.ws);
    // Accessible as the board's other screens are (WCAG 2.1 A/AA, axe-core).
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL((url) => url.href.startsWith(REDIRECT));
    const back = new URL(page.url());
    expect(back.searchParams.get("state")).toBe("xyz");
    const code = back.searchParams.get("code")!;

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
    const { access_token, scope } = (await token.json()) as { access_token: string; scope: string };
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
});
