import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker auth login --web`: the device login (RFC 8628) in a pseudo-terminal against a real server,
// the code approved in Chromium by a person signed in with a password (the device page, then the board's
// consent page, with the session cookie).
const s = useSession();
let browser: Awaited<ReturnType<BoardBrowser["launchChromium"]>> | undefined;

beforeAll(async () => {
  const board = (await import(BOARD_BROWSER)) as BoardBrowser;
  board.ensureWebBuild();
  browser = await board.launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

/** What the web board's tests launch: a headless Chromium with a fresh profile (`packages/web/src/test`). */
interface BoardBrowser {
  ensureWebBuild(): void;
  launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }>;
}
// Named at run time: the board's test helpers are not part of this package's sources.
const BOARD_BROWSER = "@tracker/web/src/test/browser.ts";

const PASSWORD = "Grace has a long enough password";

/** A person invited into the workspace who joined with a password: no key of theirs exists. */
async function passwordUser(email: string, name: string): Promise<void> {
  const api = `${s.server.url}/api/v1`;
  const invite = await fetch(`${api}/invites`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${s.token}`,
      "x-service-workspace": s.workspace.slug,
      "content-type": "application/json",
    },
    body: JSON.stringify({ email, role: "member" }),
  });
  const token = ((await invite.json()) as { invite: { url: string } }).invite.url.split("/").pop()!;
  const accepted = await fetch(`${api}/invites/accept`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, name, password: PASSWORD }),
  });
  expect(accepted.status).toBe(201);
  // In the team, so that what the command lists as them is the team's.
  const userId = ((await accepted.json()) as { user: { id: string } }).user.id;
  const joined = await fetch(`${api}/teams/ENG/members`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${s.token}`,
      "x-service-workspace": s.workspace.slug,
      "content-type": "application/json",
    },
    body: JSON.stringify({ userId }),
  });
  expect(joined.status).toBeLessThan(300);
}

/**
 * Approves as a person does, in Chromium: signed in on the board with a password (the session cookie,
 * no key), opens the page the command gave, confirms the code, and allows on the consent page.
 */
async function approve(page: Page, opened: string, userCode: string, email: string): Promise<void> {
  await page.goto(s.server.url);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(new RegExp(`/${s.workspace.slug}(/|$)`));

  await page.goto(opened);
  await expect.poll(() => page.locator("code").textContent()).toBe(userCode);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(/\/consent\/[\w-]+$/);
  await expect
    .poll(() => page.getByRole("heading", { level: 1 }).textContent())
    .toMatch(/^Allow Tracker CLI on .+ to use Tracker as you\?$/);
  await expect.poll(() => page.getByLabel("Workspace it may reach").inputValue()).toBe(s.workspace.slug);
  await page.getByRole("button", { name: "Allow" }).click();
  await expect.poll(() => page.locator("body").textContent()).toContain("signed in");
}

describe("tracker auth login --web", () => {
  it("shows a code, opens the browser, waits for approval, and stores a token that works", async () => {
    const home = path.join(s.configHome, "web-login");
    mkdirSync(home, { recursive: true });
    const opened = path.join(home, "opened.txt");
    const opener = path.join(home, "open-browser");
    writeFileSync(opener, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    chmodSync(opener, 0o755);
    const env = {
      HOME: home,
      XDG_CONFIG_HOME: home,
      TRACKER_URL: undefined,
      TRACKER_API_KEY: undefined,
      BROWSER: opener,
    };

    const t = terminal(s, ["auth", "login", "--web", "--url", s.server.url], env);
    await expect.poll(t.plain, { timeout: 15_000 }).toMatch(/First copy your one-time code: \S+/);
    const userCode = /one-time code: (\S+)/.exec(t.plain())![1]!;
    await expect.poll(() => existsSync(opened), { timeout: 15_000 }).toBe(true);
    const page = readFileSync(opened, "utf8");
    expect(page).toContain(`${s.server.url}/oauth/device`);
    expect(t.plain()).toContain("Waiting for approval");

    await passwordUser("grace@acme.test", "Grace Hopper");
    await approve(await browser!.context.newPage(), page, userCode, "grace@acme.test");
    expect(await t.exited).toBe(0);
    expect(t.plain()).toContain(`Logged in to ${s.server.url} as Grace Hopper`);

    const stored = JSON.parse(readFileSync(path.join(home, "tracker", "config.json"), "utf8")) as {
      servers: Record<string, { apiKey: string; oauth?: { refreshToken: string } }>;
    };
    const entry = stored.servers[s.server.url]!;
    expect(entry.apiKey).not.toMatch(/^trk_/);
    expect(entry.oauth?.refreshToken).toBeTruthy();
    const teams = await s.run(["teams", "list", "--jq", ".[].key"], { env });
    expect(teams).toMatchObject({ code: 0, stdout: "ENG\n" });

    // An access token about to run out is renewed with the refresh token (rotated) before a command runs.
    const file = path.join(home, "tracker", "config.json");
    entry.oauth = { ...entry.oauth!, expiresAt: Date.now() } as typeof entry.oauth;
    writeFileSync(file, JSON.stringify(stored));
    expect(await s.run(["teams", "list", "--jq", ".[].key"], { env })).toMatchObject({
      code: 0,
      stdout: "ENG\n",
    });
    const renewed = (JSON.parse(readFileSync(file, "utf8")) as typeof stored).servers[s.server.url]!;
    expect(renewed.apiKey).not.toBe(entry.apiKey);
    expect(renewed.oauth!.refreshToken).not.toBe(entry.oauth!.refreshToken);

    // Logging out revokes the login at the server: the token no longer works anywhere.
    const logout = await s.run(["auth", "logout"], { env });
    expect(logout).toMatchObject({ code: 0, stderr: `Logged out of ${s.server.url}.\n` });
    const after = await fetch(`${s.server.url}/api/v1/teams`, {
      headers: { authorization: `Bearer ${renewed.apiKey}` },
    });
    expect(after.status).toBe(401);
  });
});
