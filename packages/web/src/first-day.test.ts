import { createTracker, type Tracker } from "@tracker/sdk";
import { png, startTestServer, type TestServer } from "@tracker/server/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { type Chromium, ensureWebBuild, launchChromium } from "./test/browser.js";
import { axePage } from "./test/widths.js";

// A workspace's first day, in one go, in real Chromium against a real server: the workspace made as
// `npm run setup -- … --password-stdin` makes it (an admin with a password and no team); the admin signs in
// with the password, makes the first team on the first-run screen and invites a person, copying the link;
// the person opens it in a browser of their own, chooses a password, joins the team from the directory,
// files an issue with `c` and pastes a screenshot into its description; the admin, on the board all along,
// sees the issue arrive live and opens it to see the image.
const ADMIN_EMAIL = "ada@first-day.test";
const ADMIN_PASSWORD = "the admin's long password";
const PERSON_EMAIL = "grace@first-day.test";
const TITLE = "The export button is cut off on a phone";

let server: TestServer;
let tracker: Tracker;
let ws: string;
let admin: Chromium;
let person: Chromium | undefined;
const at = (path: string) => `${server.url}/${ws}${path}`;

/** The natural size of the loaded image whose alt text is `alt` inside `scope`: "none" until it loads. */
const imageSize = (page: Page, scope: string, alt: string) =>
  page.evaluate(
    ({ scope, alt }) => {
      const img = Array.from(document.querySelectorAll<HTMLImageElement>(`${scope} img`)).find(
        (i) => i.alt === alt,
      );
      return img?.complete && img.naturalWidth ? `${img.naturalWidth}x${img.naturalHeight}` : "none";
    },
    { scope, alt },
  );

beforeAll(async () => {
  vi.setConfig({ testTimeout: 120_000, expect: { poll: { timeout: 15_000, interval: 50 } } });
  ensureWebBuild();
  server = await startTestServer();
  const boot = await server.bootstrap({
    workspaceName: "First Day",
    email: ADMIN_EMAIL,
    name: "Ada Lovelace",
  });
  ws = boot.workspace.slug;
  tracker = createTracker({ baseUrl: server.url, apiKey: boot.apiKey.token, workspace: ws });
  // The admin's password, as `--password-stdin` sets it: here through a reset link the admin makes.
  const reset = await tracker.members.resetPassword(boot.user.id);
  const token = reset.url.split("/").pop()!;
  const set = await tracker.raw.POST("/auth/password-reset", { body: { token, password: ADMIN_PASSWORD } });
  expect(set.response.status).toBe(200);
  expect(await tracker.teams.list()).toEqual([]);
  admin = await launchChromium();
  await admin.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
}, 120_000);

afterAll(async () => {
  await person?.close();
  await admin?.close();
  await server?.close();
});

describe("the first day", () => {
  test("from an empty workspace to a teammate's issue with a screenshot, seen live by the admin", async () => {
    // The admin signs in with the password and lands on the first-run screen.
    const page = await axePage(admin);
    await page.goto(server.url);
    await page.getByLabel("Email").fill(ADMIN_EMAIL);
    await page.getByLabel("Password", { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(at(""));
    await expect.poll(() => page.getByRole("heading", { name: "Create your first team" }).count()).toBe(1);

    // The first team.
    await page.getByLabel("Team name").fill("Engineering");
    expect(await page.getByLabel("Team key").inputValue()).toBe("ENG");
    await page.getByRole("button", { name: "Create team" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Invite your team" }).count()).toBe(1);

    // An invite, its link copied.
    await page.getByLabel("Email").fill(PERSON_EMAIL);
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    const link = page.getByLabel(`Invite link for ${PERSON_EMAIL}`);
    await expect.poll(() => link.count()).toBe(1);
    await page.getByRole("button", { name: "Copy" }).click();
    await expect.poll(() => page.getByText("Copied.").count()).toBe(1);
    const inviteUrl = await page.evaluate(() => navigator.clipboard.readText());
    expect(inviteUrl).toBe(await link.inputValue());

    // The admin goes to the board and stays there.
    await page.getByRole("link", { name: "Go to the board" }).click();
    await page.waitForURL(at("/team/ENG/board"));
    await expect.poll(() => page.locator(".board .column").count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator(".live-live").count()).toBe(1);

    // The person, in a browser of their own: a password, then the team from the directory.
    person = await launchChromium();
    const own = await axePage(person);
    await own.goto(inviteUrl.replace(/^https?:\/\/[^/]+/, server.url));
    await own.getByLabel("Your name").fill("Grace Hopper");
    await own.getByLabel("Choose a password").fill("grace's long password");
    await own.getByRole("button", { name: "Join" }).click();
    await own.waitForURL(at(""));
    await expect.poll(() => own.getByRole("heading", { name: "Join a team" }).count()).toBe(1);
    await own.getByRole("button", { name: "Join Engineering" }).click();
    await own.waitForURL(at("/team/ENG/board"));
    await expect.poll(() => own.locator(".board .column").count()).toBeGreaterThan(0);

    // An issue with `c`, then a screenshot pasted into its description.
    await own.locator("main").click({ position: { x: 5, y: 5 } });
    await own.keyboard.press("c");
    const dialog = own.getByRole("dialog", { name: "New issue" });
    await dialog.getByLabel("Issue title").fill(TITLE);
    await dialog.getByRole("button", { name: "Create issue" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await own.getByRole("link", { name: "Open ENG-1" }).click();
    await own.waitForURL(at("/issue/ENG-1"));
    await own.getByRole("button", { name: "Edit description" }).click();
    await own.locator("#description-input").fill("On a 390 px screen:\n");
    await own.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], "phone.png", { type: "image/png" }));
      const target = document.querySelector("#description-input")!;
      target.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, png(39, 84).toString("base64"));
    await expect
      .poll(() => own.locator("#description-input").inputValue())
      .toMatch(/^On a 390 px screen:\n!\[phone\.png\]\(\/api\/v1\/attachments\/[^)]+\)/);
    await own.getByRole("button", { name: "Save description" }).click();
    await expect.poll(() => imageSize(own, ".description", "phone.png")).toBe("39x84");

    // The admin's board shows it without a reload; opened, the screenshot shows in the description.
    const card = page.locator(".board .card", { hasText: TITLE });
    await expect.poll(() => card.count()).toBe(1);
    const issue = await tracker.issues.get("ENG-1");
    expect(issue.description).toContain("![phone.png](/api/v1/attachments/");
    await card.click();
    await page.waitForURL(at("/issue/ENG-1"));
    await expect.poll(() => imageSize(page, ".description", "phone.png")).toBe("39x84");
    expect(await page.getByText(TITLE).count()).toBeGreaterThan(0);
  });
});
