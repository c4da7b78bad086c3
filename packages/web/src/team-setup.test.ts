import { createTracker, type Tracker } from "@tracker/sdk";
import { startTestServer, type TestServer } from "@tracker/server/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { seriousViolations } from "./test/axe.js";
import { type Chromium, ensureWebBuild, launchChromium } from "./test/browser.js";

// A new team sets itself up from the board, in real Chromium against a real server: a workspace made as
// `npm run setup -- … --password-stdin` makes it (an admin with a password and no team), the admin signs in
// with the password, makes the first team, invites a person who joins from a second browser, manages roles
// and an API key. axe runs over every new screen at 1280 and 390 px.
const ADMIN_EMAIL = "ada@acme.test";
const ADMIN_PASSWORD = "the admin's long password";
const GRACE_EMAIL = "grace@acme.test";

let server: TestServer;
let tracker: Tracker;
let ws: string;
let admin: Chromium;
let guest: Chromium | undefined;
let page: Page;
let inviteUrl = "";
let adminToken = "";
const at = (path: string) => `${server.url}/${ws}${path}`;

/**
 * A page axe can run in: the board's Content-Security-Policy (`script-src 'self'`) refuses the inline script
 * the test injects axe with, so the test's pages bypass it (Chromium's DevTools protocol, this page only).
 */
async function newPage(browser: Chromium): Promise<Page> {
  const p = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(p);
  await cdp.send("Page.setBypassCSP", { enabled: true });
  p.setDefaultTimeout(10_000);
  return p;
}

/** axe at a desktop's and a phone's width, back at the desktop's after. */
async function accessibleAtBothWidths(p: Page, ready: () => Promise<unknown>) {
  for (const width of [1280, 390]) {
    await p.setViewportSize({ width, height: 900 });
    await ready();
    // Nothing wider than the window: the page never scrolls sideways.
    const wide = await p.evaluate(() => {
      const over = [...document.querySelectorAll("body *")].filter(
        (el) =>
          el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest(".table-scroll, .sr-only"),
      );
      return over.map((el) => `${el.tagName}.${el.className}`).slice(0, 5);
    });
    expect({ width, wide }).toEqual({ width, wide: [] });
    expect({ width, violations: await seriousViolations(p) }).toEqual({ width, violations: [] });
  }
  await p.setViewportSize({ width: 1280, height: 900 });
}

beforeAll(async () => {
  vi.setConfig({ testTimeout: 60_000, expect: { poll: { timeout: 15_000, interval: 50 } } });
  ensureWebBuild();
  server = await startTestServer();
  const boot = await server.bootstrap({
    workspaceName: "Acme Setup",
    email: ADMIN_EMAIL,
    name: "Ada Lovelace",
  });
  ws = boot.workspace.slug;
  adminToken = boot.apiKey.token;
  tracker = createTracker({ baseUrl: server.url, apiKey: boot.apiKey.token, workspace: ws });
  // The admin's password, as `--password-stdin` sets it: here through a reset link the admin makes.
  const reset = await tracker.members.resetPassword(boot.user.id);
  const token = reset.url.split("/").pop()!;
  const set = await tracker.raw.POST("/auth/password-reset", { body: { token, password: ADMIN_PASSWORD } });
  expect(set.response.status).toBe(200);
  admin = await launchChromium();
  await admin.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  page = await newPage(admin);
}, 120_000);

afterAll(async () => {
  await guest?.close();
  await admin?.close();
  await server?.close();
});

describe("a team sets itself up", () => {
  test("the admin signs in with the password and makes the first team from the first-run screen", async () => {
    await page.goto(server.url);
    await page.getByLabel("Email").fill(ADMIN_EMAIL);
    await page.getByLabel("Password", { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(at(""));
    await expect.poll(() => page.getByRole("heading", { name: "Create your first team" }).count()).toBe(1);
    await accessibleAtBothWidths(page, () => page.getByLabel("Team name").waitFor());

    await page.getByLabel("Team name").fill("Engineering");
    // The key follows the name until it is typed.
    expect(await page.getByLabel("Team key").inputValue()).toBe("ENG");
    await page.getByLabel("Team name").fill("Mobile Apps");
    expect(await page.getByLabel("Team key").inputValue()).toBe("MA");
    await page.getByLabel("Team key").fill("app");
    expect(await page.getByLabel("Team key").inputValue()).toBe("APP");
    await page.getByLabel("Team key").fill("ENG");
    await page.getByLabel("Team name").fill("Engineering");
    await page.getByLabel("Work in cycles").check();
    await page.getByRole("button", { name: "Create team" }).click();

    // Then offered to invite people, or to go on to the board.
    await expect.poll(() => page.getByRole("heading", { name: "Invite your team" }).count()).toBe(1);
    await accessibleAtBothWidths(page, () => page.getByLabel("Email").waitFor());
    await page.getByRole("link", { name: "Go to the board" }).click();
    await page.waitForURL(at("/team/ENG/board"));
    const team = (await tracker.teams.list()).find((t) => t.key === "ENG");
    expect(team).toMatchObject({ name: "Engineering", cyclesEnabled: true });
    const sidebar = page.getByRole("navigation", { name: "Workspace" });
    await expect.poll(() => sidebar.getByRole("link", { name: "Current cycle" }).count()).toBe(1);
  });

  test("the admin invites a person from Settings, People, and sees the link once", async () => {
    await page
      .getByRole("navigation", { name: "Workspace" })
      .getByRole("link", { name: "Settings", exact: true })
      .click();
    const settings = page.getByRole("navigation", { name: "Settings" });
    await settings.getByRole("link", { name: "People" }).click();
    await page.waitForURL(at("/settings/people"));
    // The chosen screen's heading has the focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("People");

    await page.getByLabel("Email").fill(GRACE_EMAIL);
    await page.getByLabel("Role", { exact: true }).selectOption("member");
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    const link = page.getByLabel(`Invite link for ${GRACE_EMAIL}`);
    await expect.poll(() => link.count()).toBe(1);
    inviteUrl = await link.inputValue();
    expect(inviteUrl).toMatch(/\/invite\/\S+$/);
    await page.getByRole("button", { name: "Copy" }).click();
    await expect.poll(() => page.getByText("Copied.").count()).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(inviteUrl);
    const pending = page.getByRole("list", { name: "Pending invites" });
    await expect.poll(() => pending.getByRole("listitem", { name: GRACE_EMAIL }).count()).toBe(1);
    await accessibleAtBothWidths(page, () => pending.waitFor());

    // A second invite, revoked: its link stops working.
    await page.getByLabel("Email").fill("linus@acme.test");
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    await expect.poll(() => pending.getByRole("listitem").count()).toBe(2);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Revoke the invite to linus@acme.test" }).click();
    await expect.poll(() => pending.getByRole("listitem").count()).toBe(1);
    expect((await tracker.invites.list()).map((i) => i.email)).toEqual([GRACE_EMAIL]);
  });

  test("the person opens the link in another browser, chooses a password, joins the team and sees its board", async () => {
    guest = await launchChromium();
    const other = await newPage(guest);
    await other.goto(inviteUrl.replace(/^https?:\/\/[^/]+/, server.url));
    await other.getByLabel("Your name").fill("Grace Hopper");
    await other.getByLabel("Choose a password").fill("grace's long password");
    await other.getByRole("button", { name: "Join" }).click();
    await other.waitForURL(at(""));
    await expect.poll(() => other.getByRole("heading", { name: "Join a team" }).count()).toBe(1);
    const directory = other.getByRole("list", { name: "Teams" });
    await expect.poll(() => directory.getByRole("listitem", { name: "Engineering" }).count()).toBe(1);
    await accessibleAtBothWidths(other, () => directory.waitFor());

    await other.getByRole("button", { name: "Join Engineering" }).click();
    await other.waitForURL(at("/team/ENG/board"));
    await expect.poll(() => other.locator(".board .column").count()).toBeGreaterThan(0);
    const members = await tracker.teams.members("ENG");
    expect(members.map((m) => m.name).sort()).toEqual(["Ada Lovelace", "Grace Hopper"]);
  });

  test("a member is not offered the admins' screens; joins and leaves teams from Settings, Teams", async () => {
    const other = guest!.context.pages()[0]!;
    await tracker.teams.create({ name: "Design", key: "DES" });
    await other.goto(at("/settings"));
    await other.waitForURL(at("/settings/workspace"));
    await expect
      .poll(() => other.getByText(/Only workspace admins may change the workspace/).count())
      .toBe(1);
    const nav = other.getByRole("navigation", { name: "Settings" });
    expect(await nav.getByRole("link").allTextContents()).toEqual([
      "Workspace",
      "Teams",
      "Labels",
      "Workflow",
      "My account",
      "Access",
    ]);
    expect(await other.getByRole("button", { name: "Save" }).count()).toBe(0);
    // Opened by its address, People tells the member it is the admins'.
    await other.goto(at("/settings/people"));
    await expect.poll(() => other.getByText(/Only workspace admins manage people/).count()).toBe(1);
    expect(await other.getByRole("button", { name: "Invite", exact: true }).count()).toBe(0);

    await nav.getByRole("link", { name: "Teams" }).click();
    const directory = other.getByRole("list", { name: "Teams" });
    await expect.poll(() => directory.getByRole("listitem").count()).toBe(2);
    // Team settings are the admins'.
    expect(await other.getByRole("heading", { name: "Your teams' settings" }).count()).toBe(0);
    await other.getByRole("button", { name: "Join Design" }).click();
    const sidebar = other.getByRole("navigation", { name: "Workspace" });
    await expect.poll(() => sidebar.getByRole("region", { name: "Design" }).count()).toBe(1);
    other.once("dialog", (dialog) => void dialog.accept());
    await other.getByRole("button", { name: "Leave Design" }).click();
    await expect.poll(() => sidebar.getByRole("region", { name: "Design" }).count()).toBe(0);
    await expect.poll(() => other.getByRole("button", { name: "Join Design" }).count()).toBe(1);
  });

  test("the admin changes the person's role; demoting the last admin is refused with the server's message", async () => {
    await page.goto(at("/settings/people"));
    const members = page.getByRole("list", { name: "Members" });
    const grace = members.getByRole("listitem", { name: "Grace Hopper" });
    await expect.poll(() => grace.count()).toBe(1);
    await grace.getByLabel("Role of Grace Hopper").selectOption("guest");
    await expect
      .poll(async () => (await tracker.users.list()).find((u) => u.email === GRACE_EMAIL)?.role)
      .toBe("guest");
    await grace.getByLabel("Role of Grace Hopper").selectOption("member");
    await expect
      .poll(async () => (await tracker.users.list()).find((u) => u.email === GRACE_EMAIL)?.role)
      .toBe("member");

    const ada = members.getByRole("listitem", { name: "Ada Lovelace" });
    await ada.getByLabel("Role of Ada Lovelace").selectOption("member");
    await expect
      .poll(() => ada.getByRole("alert").textContent())
      .toBe("This is the workspace's last admin: make someone else admin first.");
    // Still the admin, and the choice shows it again.
    expect(await ada.getByLabel("Role of Ada Lovelace").inputValue()).toBe("admin");
    expect((await tracker.users.list()).find((u) => u.isMe)?.role).toBe("admin");
  });

  test("the admin removes a member from the workspace", async () => {
    const leaving = await server.addMember(adminToken, "member", "leaving@acme.test");
    await page.goto(at("/settings/people"));
    const members = page.getByRole("list", { name: "Members" });
    await expect.poll(() => members.getByRole("listitem").count()).toBe(3);
    // Nobody removes themself here.
    expect(await page.getByRole("button", { name: "Remove Ada Lovelace" }).count()).toBe(0);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Remove leaving" }).click();
    await expect.poll(() => members.getByRole("listitem").count()).toBe(2);
    expect((await tracker.users.list()).map((u) => u.id)).not.toContain(leaving.userId);
  });

  test("the admin renames a team and turns its estimates on from Settings, Teams", async () => {
    await page.goto(at("/settings/teams"));
    const eng = page.getByRole("form", { name: "Engineering (ENG)" });
    await eng.getByLabel("Name of ENG").fill("Platform");
    await eng.getByLabel("Estimates").selectOption("fibonacci");
    await eng.getByRole("button", { name: "Save ENG" }).click();
    await expect
      .poll(async () => (await tracker.teams.list()).find((t) => t.key === "ENG"))
      .toMatchObject({ name: "Platform", estimateScale: "fibonacci" });
    await accessibleAtBothWidths(page, () => page.getByRole("list", { name: "Teams" }).waitFor());
  });

  test("the admin makes a read-only API key, sees its token once, and revokes it", async () => {
    await page.goto(at("/settings/access"));
    await page.getByLabel("Key name").fill("CI reader");
    await page.getByRole("combobox", { name: "Access" }).selectOption("read");
    await page.getByLabel("Expires after").selectOption("30");
    await page.getByRole("button", { name: "Create key" }).click();
    const field = page.getByLabel("Token of CI reader");
    await expect.poll(() => field.count()).toBe(1);
    const token = await field.inputValue();
    expect(token).toMatch(/^trk_/);
    await page.getByRole("button", { name: "Copy" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    // The key reads, and may change nothing.
    const reader = createTracker({ baseUrl: server.url, apiKey: token, workspace: ws, maxRetries: 0 });
    expect((await reader.teams.list()).length).toBeGreaterThan(0);
    await expect(reader.issues.create({ team: "ENG", title: "Not allowed" })).rejects.toMatchObject({
      status: 403,
    });
    const row = page.getByRole("row", { name: "CI reader" });
    await expect.poll(() => row.count()).toBe(1);
    const cells = await row.getByRole("cell").allTextContents();
    expect(cells[0]).toBe("read");
    await accessibleAtBothWidths(page, () => row.waitFor());

    // Shown once: gone after leaving the screen.
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Workspace" }).click();
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Access" }).click();
    await expect.poll(() => row.count()).toBe(1);
    expect(await page.getByLabel("Token of CI reader").count()).toBe(0);
    expect(await page.getByText(token).count()).toBe(0);

    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: "Revoke CI reader" }).click();
    await expect.poll(() => row.count()).toBe(0);
    await expect(reader.teams.list()).rejects.toMatchObject({ status: 401 });
  });

  test("the workspace screen, at both widths", async () => {
    await page.goto(at("/settings/workspace"));
    await expect.poll(() => page.getByLabel("Workspace name").inputValue()).toBe("Acme Setup");
    await accessibleAtBothWidths(page, () => page.getByLabel("Workspace name").waitFor());
    await page.getByLabel("Workspace name").fill("Acme Inc.");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => (await tracker.workspaces.list())[0]?.name).toBe("Acme Inc.");
  });
});
