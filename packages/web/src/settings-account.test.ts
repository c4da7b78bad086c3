import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { seriousViolations } from "./test/axe.js";
import { type Chromium, launchChromium } from "./test/browser.js";
import { addPasswordUser, type BoardSession, openBoardSession, signInWithPassword } from "./test/session.js";

// Settings, My account and Access, in real Chromium against a real server, as a person signed in with a
// password: they rename themself, change their password (the old one then refused), see the browsers they
// are signed in from and sign one out, approve an app on the consent page and revoke it (its token then
// refused), and choose e-mail at once, then get a mail through a real SMTP server when someone else assigns
// them an issue. axe runs over both screens at 1280 and 390 px.

const mails: { to: string[]; text: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onData(stream, envelope, done) {
    let text = "";
    stream.setEncoding("utf8");
    stream.on("data", (d: string) => {
      text += d;
    });
    stream.on("end", () => {
      mails.push({ to: envelope.envelope.rcptTo.map((r) => r.address), text: text.replace(/=\r?\n/g, "") });
      done();
    });
  },
});

let session: BoardSession;
let browser: Chromium;
let page: Page;
let grace: { email: string; password: string };
let appServer: Server;
let REDIRECT = "";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  // The server e-mails through the test's SMTP server and looks at its outbox often.
  vi.stubEnv("TRACKER_SMTP_URL", `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`);
  vi.stubEnv("TRACKER_MAIL_POLL_MS", "200");
  session = await openBoardSession("Acme Account");
  vi.setConfig({ testTimeout: 60_000 });
  grace = await addPasswordUser(session, "Grace Hopper");
  browser = await launchChromium();
  page = await browser.context.newPage();
  // axe is injected by an inline script, which the board's Content-Security-Policy refuses: this page only.
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send("Page.setBypassCSP", { enabled: true });
  page.setDefaultTimeout(10_000);
  await signInWithPassword(session, page, grace);
  appServer = createServer((_, res) => res.end("app"));
  await new Promise<void>((resolve) => appServer.listen(0, "127.0.0.1", resolve));
  REDIRECT = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}/callback`;
}, 120_000);

afterAll(async () => {
  appServer?.close();
  await browser?.close();
  await session?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  vi.unstubAllEnvs();
});

/** axe at a desktop's and a phone's width, nothing wider than the window, back at the desktop's after. */
async function accessibleAtBothWidths(ready: () => Promise<unknown>) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await ready();
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter(
          (el) =>
            el.getBoundingClientRect().right > window.innerWidth + 1 &&
            !el.closest(".table-scroll, .sr-only"),
        )
        .map((el) => `${el.tagName}.${el.className}`)
        .slice(0, 5),
    );
    expect({ width, wide }).toEqual({ width, wide: [] });
    expect({ width, violations: await seriousViolations(page) }).toEqual({ width, violations: [] });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const signInStatus = async (email: string, password: string, userAgent?: string) =>
  (
    await fetch(`${session.server.url}/api/v1/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(userAgent ? { "user-agent": userAgent } : {}) },
      body: JSON.stringify({ email, password }),
    })
  ).status;

describe("My account", () => {
  test("the person renames themself", async () => {
    await page.goto(session.at("/settings/account"));
    const name = page.getByLabel("Name", { exact: true });
    await expect.poll(() => name.inputValue()).toBe("Grace Hopper");
    await name.fill("Grace B. Hopper");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect.poll(() => page.getByText("Name saved.").count()).toBe(1);
    const users = await session.tracker.users.list();
    expect(users.map((u) => u.name)).toContain("Grace B. Hopper");
    await accessibleAtBothWidths(() => page.getByRole("button", { name: "Save notifications" }).waitFor());
  });

  test("the person changes their password; the old one is refused at the next sign-in", async () => {
    await page.goto(session.at("/settings/account"));
    const form = page.getByRole("form", { name: "Change your password" });
    await form.getByLabel("Current password").fill("not my password");
    await form.getByLabel("New password", { exact: true }).fill("a new long password");
    await form.getByLabel("New password again").fill("a new long password");
    await form.getByRole("button", { name: "Change password" }).click();
    await expect.poll(() => form.getByText("The current password is not right.").count()).toBe(1);

    await form.getByLabel("Current password").fill(grace.password);
    await form.getByRole("button", { name: "Change password" }).click();
    await expect.poll(() => form.getByText(/^Password changed/).count()).toBe(1);
    expect(await signInStatus(grace.email, grace.password)).toBe(401);
    expect(await signInStatus(grace.email, "a new long password")).toBe(200);
    grace = { ...grace, password: "a new long password" };
    // This browser stays signed in.
    await page.reload();
    await expect.poll(() => page.getByLabel("Name", { exact: true }).inputValue()).toBe("Grace B. Hopper");
  });

  test("the person chooses e-mail at once, and gets a mail when someone else assigns them an issue", async () => {
    await page.goto(session.at("/settings/account"));
    await page.getByLabel("Also e-mail each one at once").check();
    await page.getByRole("button", { name: "Save notifications" }).click();
    await expect.poll(() => page.getByText("Notification settings saved.").count()).toBe(1);
    await accessibleAtBothWidths(() => page.getByText("Notification settings saved.").waitFor());

    const issue = await session.tracker.issues.create({ team: "ENG", title: "Check the release notes" });
    await session.tracker.issues.update(issue.identifier, { assignee: grace.email });
    await expect.poll(() => mails.filter((m) => m.to.includes(grace.email)).length).toBe(1);
    const mail = mails.find((m) => m.to.includes(grace.email))!;
    expect(mail.text).toContain(`${issue.identifier} Check the release notes`);
    expect(mail.text).toContain("Ada Lovelace assigned it to you");
    expect(mail.text).toContain(`/${session.ws}/issue/${issue.identifier}`);
  });
});

describe("Access", () => {
  test("the person sees where they are signed in and signs another browser out", async () => {
    expect(await signInStatus(grace.email, grace.password, FIREFOX)).toBe(200);
    await page.goto(session.at("/settings/access"));
    const table = page.getByRole("table", { name: "Your sessions" });
    const firefox = table.getByRole("row", { name: "Firefox on Linux" });
    await expect.poll(() => firefox.count()).toBe(1);
    await expect.poll(() => table.getByRole("row", { name: /\(this browser\)$/ }).count()).toBe(1);
    await accessibleAtBothWidths(() => firefox.waitFor());
    await firefox.getByRole("button", { name: "Sign out Firefox on Linux" }).click();
    await expect.poll(() => firefox.count()).toBe(0);
    const left = await session.server.query<{ user_agent: string | null }>(
      "select s.user_agent from sessions s join users u on u.id = s.user_id where u.email = $1",
      [grace.email],
    );
    expect(left.map((s) => s.user_agent)).not.toContain(FIREFOX);
    // This browser is still signed in.
    expect(await table.getByRole("row", { name: /\(this browser\)$/ }).count()).toBe(1);
  });

  test("the person approves an app, sees it listed, revokes it, and its token is refused", async () => {
    const app = await authorizeUrl("write");
    await page.goto(app.url);
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("Allow Deploy Helper to use Tracker as you?");
    await expect.poll(() => page.getByLabel("Workspace it may reach").inputValue()).toBe(session.ws);
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL((url) => url.href.startsWith(REDIRECT));
    const token = await redeem(app, new URL(page.url()).searchParams.get("code")!);
    const teams = () =>
      fetch(`${session.server.url}/api/v1/teams`, { headers: { authorization: `Bearer ${token}` } });
    expect((await teams()).status).toBe(200);

    await page.goto(session.at("/settings/access"));
    const row = page
      .getByRole("table", { name: "Apps you authorised" })
      .getByRole("row", { name: "Deploy Helper" });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByRole("cell").allTextContents()).toEqual(
      expect.arrayContaining(["Acme Account", "write"]),
    );
    await accessibleAtBothWidths(() => row.waitFor());
    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: "Revoke Deploy Helper" }).click();
    await expect.poll(() => row.count()).toBe(0);
    const refused = await teams();
    expect({ status: refused.status, code: ((await refused.json()) as { code: string }).code }).toEqual({
      status: 401,
      code: "unauthenticated",
    });
  });
});

describe("Access, last", () => {
  test("signing out everywhere ends every session of the person and lands on the sign-in page", async () => {
    expect(await signInStatus(grace.email, grace.password, FIREFOX)).toBe(200);
    await page.goto(session.at("/settings/access"));
    const button = page.getByRole("button", { name: "Sign out of every browser" });
    await button.waitFor();
    page.once("dialog", (dialog) => void dialog.accept());
    await button.click();
    await expect.poll(() => page.getByLabel("Email").count()).toBe(1);
    const left = await session.server.query(
      "select 1 from sessions s join users u on u.id = s.user_id where u.email = $1",
      [grace.email],
    );
    expect(left).toEqual([]);
  });
});

/** An app registered as "Deploy Helper", and the authorization request it sends the browser to. */
async function authorizeUrl(scope: string) {
  const meta = (await (
    await fetch(`${session.server.url}/.well-known/oauth-authorization-server`)
  ).json()) as { authorization_endpoint: string; registration_endpoint: string; token_endpoint: string };
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

/** The app's code for its access token (PKCE), as the app's server would. */
async function redeem(app: Awaited<ReturnType<typeof authorizeUrl>>, code: string): Promise<string> {
  const res = await fetch(app.tokenEndpoint, {
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
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}
