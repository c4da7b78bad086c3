import { createTracker, type Tracker } from "@tracker/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type BoardSession, openBoardSession, signIn } from "./test/session.js";

// Issue 34: an issue's history, my issues and the inbox, archive with undo; in a real Chromium at
// 1280 px against a real server.
let session: BoardSession;
let tracker: Tracker;
let page: Page;

beforeAll(async () => {
  session = await openBoardSession("Acme History");
  ({ tracker, page } = session);
  await page.setViewportSize({ width: 1280, height: 800 });
  await tracker.issues.create({ team: "ENG", title: "Fix the login form", state: "Todo", priority: 2 }); // ENG-1
  await tracker.issues.create({ team: "ENG", title: "Ship dark mode" }); // ENG-2
  await signIn(session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

const timeline = () => page.getByRole("list", { name: "History" }).getByRole("listitem");

describe("history", () => {
  test("the issue page's timeline says who changed what, and grows with an edit made on the page", async () => {
    const other = await session.server.addMember(session.token, "member");
    const bobTracker = createTracker({
      baseUrl: session.server.url,
      apiKey: other.token,
      workspace: session.ws,
    });
    await bobTracker.issues.update("ENG-1", { state: "In Progress", dueDate: "2026-12-24" });
    await tracker.issues.addRelation("ENG-1", { issue: "ENG-2", type: "blocks" });

    await page.goto(session.at("/issue/ENG-1"));
    await page.getByText("History", { exact: true }).click();
    await expect
      .poll(() => timeline().allInnerTexts())
      .toEqual([
        expect.stringMatching(/^Ada Lovelace created the issue /),
        expect.stringMatching(/^member-\w+ moved from Todo to In Progress /),
        expect.stringMatching(/^member-\w+ changed due date from none to 2026-12-24 /),
        expect.stringMatching(/^Ada Lovelace marked as blocks ENG-2 /),
      ]);

    await page.getByRole("button", { name: /Title: Fix the login form/ }).click();
    await page.getByLabel("Title", { exact: true }).fill("Fix the login form for good");
    await page.keyboard.press("Enter");
    await expect
      .poll(async () => (await timeline().allInnerTexts()).at(-1))
      .toMatch(/^Ada Lovelace changed title from Fix the login form to Fix the login form for good /);
    // The timeline stays inside the page's column at 1280 px.
    const box = (await page.getByRole("list", { name: "History" }).boundingBox())!;
    const side = (await page.locator(".issue-side").boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(side.x + 1);
  });
});

describe("delete", () => {
  test("asks in the page first; Cancel keeps the issue, Delete removes it from the board", async () => {
    await tracker.issues.create({ team: "ENG", title: "Throwaway spike" }); // ENG-3
    await page.goto(session.at("/issue/ENG-3"));
    await page.getByRole("button", { name: "Delete issue…" }).click();
    const ask = page.getByRole("alertdialog", { name: "Delete ENG-3" });
    await expect
      .poll(() => ask.textContent())
      .toMatch(/Delete ENG-3 for good, with its comments and history\?/);
    await ask.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => ask.count()).toBe(0);
    expect((await tracker.issues.get("ENG-3")).title).toBe("Throwaway spike");

    await page.getByRole("button", { name: "Delete issue…" }).click();
    await ask.getByRole("button", { name: "Delete", exact: true }).click();
    await page.waitForURL(session.at("/team/ENG/board"));
    await expect.poll(() => page.getByText("Deleted ENG-3").count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText("Throwaway spike").count()).toBe(0);
    await expect(tracker.issues.get("ENG-3")).rejects.toMatchObject({ status: 404 });
  });

  test("a member who did not create the issue is told why not, and it stays", async () => {
    const other = await session.server.addMember(session.token, "member");
    // The member's key in this origin's storage, as signing in leaves it; the admin's page signs back in after.
    const memberPage = await session.browser.context.newPage();
    await memberPage.setViewportSize({ width: 1280, height: 800 });
    await memberPage.goto(session.server.url);
    await memberPage.evaluate((key) => localStorage.setItem("tracker.apiKey", key), other.token);
    await memberPage.goto(session.at("/issue/ENG-2"));
    await memberPage.getByRole("button", { name: "Delete issue…" }).click();
    await memberPage.getByRole("button", { name: "Delete", exact: true }).click();
    await expect
      .poll(() => memberPage.getByText(/ENG-2 not deleted: .*creator or a workspace admin/).count())
      .toBeGreaterThan(0);
    expect((await tracker.issues.get("ENG-2")).title).toBe("Ship dark mode");
    await memberPage.evaluate((key) => localStorage.setItem("tracker.apiKey", key), session.token);
    await memberPage.close();
  });
});

describe("inbox", () => {
  test("a badge counts what others did on my issues; the inbox lists it, opening one and Mark all read clear it", async () => {
    const other = await session.server.addMember(session.token, "member", "grace@example.com");
    const grace = createTracker({ baseUrl: session.server.url, apiKey: other.token, workspace: session.ws });
    // What earlier tests left in my inbox, read: the badge starts empty.
    await tracker.inbox.markRead({});
    await page.goto(session.at("/projects"));
    const inboxLink = page
      .getByRole("navigation", { name: "Workspace" })
      .getByRole("link", { name: /^Inbox/ });
    await expect.poll(() => inboxLink.textContent()).toBe("Inbox");

    // Live: Grace's changes to my issue and her mention of me reach the badge without a reload.
    await grace.issues.update("ENG-1", { priority: 1 });
    const handle = (await tracker.users.list()).find((u) => u.isMe)!.email.split("@")[0];
    await grace.comments.create("ENG-2", { body: `@${handle} have a look` });
    await expect.poll(() => inboxLink.textContent()).toMatch(/^Inbox\s*2\s+unread$/);

    await inboxLink.click();
    const items = page.getByRole("list", { name: "Notifications" }).getByRole("listitem");
    await expect
      .poll(async () => (await items.allInnerTexts()).slice(0, 2))
      .toEqual([
        expect.stringMatching(/^ENG-2 Ship dark mode\s+grace commented · mentioned you · .* · unread$/),
        expect.stringMatching(
          /^ENG-1 .*\s+grace changed priority from High to Urgent · you created it · .* · unread$/,
        ),
      ]);
    await items.first().getByRole("link").click();
    await page.waitForURL(session.at("/issue/ENG-2"));
    await expect.poll(() => inboxLink.textContent()).toMatch(/^Inbox\s*1\s+unread$/);

    await inboxLink.click();
    await page.getByRole("button", { name: "Mark all read" }).click();
    await expect.poll(() => inboxLink.textContent()).toBe("Inbox");
    await expect
      .poll(async () => (await items.allInnerTexts()).filter((t) => t.endsWith("unread")))
      .toEqual([]);
    expect(await items.count()).toBeGreaterThanOrEqual(2);
    expect((await tracker.inbox.list({ unread: "true" })).unreadCount).toBe(0);
  });
});

describe("comment edits", () => {
  test("an edited comment's mark opens what it said before, oldest first", async () => {
    const comment = await tracker.comments.create("ENG-2", { body: "Ship it on **Monday**." });
    await tracker.comments.update("ENG-2", comment.id, { body: "Ship it on Tuesday." });
    await tracker.comments.update("ENG-2", comment.id, { body: "Ship it on Wednesday." });
    await page.goto(session.at("/issue/ENG-2"));
    const item = page.locator("li.comment", { hasText: "Ship it on Wednesday." });
    await item.getByRole("button", { name: "Edited: show earlier versions" }).click();
    const earlier = page.getByRole("dialog", { name: "Earlier versions" });
    await expect
      .poll(async () => (await earlier.locator(".markdown").allTextContents()).map((t) => t.trim()))
      .toEqual(["Ship it on Monday.", "Ship it on Tuesday."]);
    await page.keyboard.press("Escape");
    await expect.poll(() => earlier.count()).toBe(0);
  });
});

describe("my issues", () => {
  test("lists what I am assigned, what I created and what I follow, each in its own tab", async () => {
    const grace = await session.server.addMember(session.token, "member");
    const theirs = createTracker({ baseUrl: session.server.url, apiKey: grace.token, workspace: session.ws });
    const me = (await tracker.users.list()).find((u) => u.isMe)!;
    await theirs.issues.create({ team: "ENG", title: "Review the pricing page", assignee: me.email });
    const followed = await theirs.issues.create({ team: "ENG", title: "Rotate the signing keys" });
    await theirs.issues.create({ team: "ENG", title: "Grace's own errand" });
    await tracker.raw.PUT("/issues/{identifier}/subscription", {
      params: { path: { identifier: followed.identifier } },
    });
    const mine = await tracker.issues.create({ team: "ENG", title: "Plan the offsite" });

    await page.goto(session.at("/inbox"));
    await page
      .getByRole("navigation", { name: "Workspace" })
      .getByRole("link", { name: "My issues" })
      .click();
    const titles = async () => (await page.locator("tr.issue-row td.col-title").allInnerTexts()).sort();
    const tabs = page.getByRole("navigation", { name: "My issues" });
    await expect.poll(titles).toEqual(["Review the pricing page"]);
    expect(await page.title()).toMatch(/^My issues · Assigned/);

    await tabs.getByRole("link", { name: "Created" }).click();
    await expect.poll(titles).toEqual(expect.arrayContaining(["Plan the offsite"]));
    expect(await titles()).not.toContain("Review the pricing page");

    await tabs.getByRole("link", { name: "Subscribed" }).click();
    await expect
      .poll(titles)
      .toEqual(expect.arrayContaining(["Review the pricing page", "Rotate the signing keys", mine.title]));
    expect(await titles()).not.toContain("Grace's own errand");
    expect(new URL(page.url()).pathname).toBe(`/${session.ws}/my/subscribed`);
    // The sidebar still says where one is, on every tab.
    const sidebarEntry = page
      .getByRole("navigation", { name: "Workspace" })
      .getByRole("link", { name: "My issues" });
    expect(await sidebarEntry.getAttribute("aria-current")).toBe("page");
  });
});

describe("following an issue", () => {
  test("the issue page's Subscribe toggle follows and unfollows, and says which it is", async () => {
    const dana = await session.server.addMember(session.token, "member");
    const theirs = createTracker({ baseUrl: session.server.url, apiKey: dana.token, workspace: session.ws });
    const issue = await theirs.issues.create({ team: "ENG", title: "Renew the certificates" });

    await page.goto(session.at(`/issue/${issue.identifier}`));
    const toggle = page.getByRole("button", { name: /^(Subscribe|Unsubscribe)$/ });
    await expect.poll(() => toggle.textContent()).toBe("Subscribe");
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");

    await toggle.click();
    await expect.poll(() => tracker.issues.subscribed(issue.identifier)).toBe(true);
    expect(await toggle.textContent()).toBe("Unsubscribe");
    // Followed: Dana's next change reaches my inbox.
    const unread = (await tracker.inbox.list({ unread: "true" })).unreadCount;
    await theirs.issues.update(issue.identifier, { priority: 1 });
    await expect
      .poll(async () => (await tracker.inbox.list({ unread: "true" })).unreadCount)
      .toBe(unread + 1);

    await page.reload();
    await expect.poll(() => toggle.textContent()).toBe("Unsubscribe");
    await toggle.click();
    await expect.poll(() => tracker.issues.subscribed(issue.identifier)).toBe(false);
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
  });
});
