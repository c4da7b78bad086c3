import { createTracker } from "@tracker/sdk";
import { startTestIdp } from "@tracker/server/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { type BoardSession, openBoardSession } from "./test/session.js";

// The OpenID provider below runs on this machine, which the server reaches only when told to.
vi.stubEnv("TRACKER_OUTBOUND_ALLOW_PRIVATE", "1");

// A person invited by an admin joins with a password, signs in with it, works on the board with the
// session cookie (no API key in the browser), and signs out, in a real Chromium against a real server.
let session: BoardSession;
let page: Page;
const EMAIL = "grace@acme.test";
const PASSWORD = "a long enough password";

beforeAll(async () => {
  session = await openBoardSession("Acme People");
  page = session.page;
}, 120_000);

afterAll(async () => {
  await session?.close();
});

const sessionCookie = async () =>
  (await page.context().cookies(session.server.url)).find((c) => c.name === "tracker_session");

describe("people sign in", () => {
  test("an invited person sets a password, signs in with it, creates an issue and signs out", async () => {
    const { server, tracker, ws } = session;
    const invite = await tracker.raw.POST("/invites", { body: { email: EMAIL, role: "member" } });
    const url = invite.data!.invite.url.replace(/^https?:\/\/[^/]+/, server.url);

    await page.goto(url);
    await page.getByLabel("Your name").fill("Grace Hopper");
    await page.getByLabel("Choose a password").fill(PASSWORD);
    await page.getByRole("button", { name: "Join" }).click();
    await page.waitForURL(new RegExp(`/${ws}(/|$)`));
    // Signed in by the cookie alone: HttpOnly, so no script of the page can read it, and no key is kept.
    const joined = await sessionCookie();
    expect(joined).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    expect(await page.evaluate(() => document.cookie)).not.toContain("tracker_session");
    expect(await page.evaluate(() => localStorage.getItem("tracker.apiKey"))).toBe("session");

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect.poll(() => page.getByLabel("Password", { exact: true }).count()).toBe(1);
    expect(await sessionCookie()).toBeUndefined();

    // Back with the password.
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(new RegExp(`/${ws}(/|$)`));
    // A fresh load keeps the person signed in: the cookie, not anything a script holds.
    await page.goto(session.at("/team/ENG/board"));
    await expect.poll(() => page.getByRole("button", { name: "Sign out everywhere" }).count()).toBe(1);
    const signedIn = (await sessionCookie())!;
    expect(signedIn.value).not.toBe(joined!.value);

    await page.locator("main").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("c");
    const dialog = page.getByRole("dialog", { name: "New issue" });
    await dialog.getByLabel("Issue title").fill("Made by Grace in the browser");
    await dialog.getByRole("button", { name: "Create issue" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const made = (await tracker.issues.list({ team: "ENG" })).items.find(
      (i) => i.title === "Made by Grace in the browser",
    );
    expect(made).toBeDefined();

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect.poll(() => page.getByLabel("Password", { exact: true }).count()).toBe(1);
    // The session ended on the server: its cookie, replayed, opens nothing.
    const replay = createTracker({ baseUrl: server.url, maxRetries: 0 });
    const after = await replay.raw.GET("/auth/session", {
      headers: { cookie: `tracker_session=${signedIn.value}` },
    });
    expect(after.response.status).toBe(401);
  });

  test("a reset link from an admin sets a new password, and the old one stops working", async () => {
    const { server, tracker } = session;
    const grace = (await tracker.users.list()).find((u) => u.email === EMAIL)!;
    const made = await tracker.raw.POST("/members/{userId}/password-reset", {
      params: { path: { userId: grace.id } },
    });
    const url = made.data!.reset.url.replace(/^https?:\/\/[^/]+/, server.url);
    await page.goto(url);
    await page.getByLabel("New password").fill("another long password");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("button", { name: "Sign in" }).click();

    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect.poll(() => page.getByText("Wrong email or password.").count()).toBe(1);
    await page.getByLabel("Password", { exact: true }).fill("another long password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(new RegExp(`/${session.ws}(/|$)`));
  });
  test("another person signs in through the workspace's OpenID provider and lands on the board", async () => {
    const { server, tracker, ws } = session;
    const idp = await startTestIdp({
      redirectUris: [`${server.url}/auth/sso/callback`],
      accounts: { linus: { email: "linus@acme.test", email_verified: true, name: "Linus Torvalds" } },
    });
    try {
      const put = await tracker.raw.PUT("/sso", {
        body: {
          issuer: idp.issuer,
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
          allowedDomains: ["acme.test"],
        },
      });
      expect(put.response.status).toBe(200);
      await page.context().clearCookies();
      await page.goto(server.url);
      await page.evaluate(() => localStorage.clear());
      await page.reload();

      await page.getByLabel("Workspace", { exact: true }).fill(ws);
      await page.getByRole("button", { name: "Continue with single sign-on" }).click();
      // The provider's own pages: its sign-in, then its consent.
      await page.waitForURL((url) => url.href.startsWith(`${idp.issuer}/interaction/`));
      await page.locator('input[name="login"]').fill("linus");
      await page.locator('input[name="password"]').fill("anything");
      await page.getByRole("button", { name: "Sign-in" }).click();
      await page.getByRole("button", { name: "Continue" }).click();

      await page.waitForURL(new RegExp(`^${server.url}/${ws}(/|$)`));
      await expect.poll(() => page.getByRole("button", { name: "Sign out everywhere" }).count()).toBe(1);
      expect(await page.evaluate(() => localStorage.getItem("tracker.apiKey"))).toBe("session");
      expect((await sessionCookie())?.httpOnly).toBe(true);
      const linus = (await tracker.users.list()).find((u) => u.email === "linus@acme.test");
      expect(linus).toMatchObject({ name: "Linus Torvalds", role: "member" });
    } finally {
      await idp.close();
    }
  });
});
