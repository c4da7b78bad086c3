import type { Tracker } from "@tracker/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type BoardSession, openBoardSession, signIn } from "./test/session.js";

// Issue 34: archive an issue with Undo, and restore an archived one from its page; in a real Chromium at
// 1280 px against a real server.
let session: BoardSession;
let tracker: Tracker;
let page: Page;

beforeAll(async () => {
  session = await openBoardSession("Acme Archive");
  ({ tracker, page } = session);
  await page.setViewportSize({ width: 1280, height: 800 });
  await tracker.issues.create({ team: "ENG", title: "Keep this one on the board" }); // ENG-1
  await tracker.issues.create({ team: "ENG", title: "Stale spike to archive" }); // ENG-2
  await tracker.issues.create({ team: "ENG", title: "Already archived idea" }); // ENG-3
  await signIn(session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

const onBoard = (title: string) => page.locator(".card", { hasText: title });

describe("archive", () => {
  test("Archive on the issue page (and in Ctrl/Cmd-K) takes it off the board and says so in a toast", async () => {
    await page.goto(session.at("/issue/ENG-2"));
    await page.getByRole("button", { name: "Archive", exact: true }).click();
    await page.waitForURL(session.at("/team/ENG/board"));
    const toast = page.getByRole("status").filter({ hasText: "ENG-2 archived" });
    await expect.poll(() => toast.count()).toBe(1);
    await expect.poll(() => onBoard("Keep this one on the board").count()).toBe(1);
    await expect.poll(() => onBoard("Stale spike to archive").count()).toBe(0);
    expect((await tracker.issues.get("ENG-2")).archivedAt).not.toBeNull();
    // Reloaded, the server's list leaves it out too.
    await page.reload();
    await expect.poll(() => onBoard("Keep this one on the board").count()).toBe(1);
    expect(await onBoard("Stale spike to archive").count()).toBe(0);

    // Restored from its page, then archived again from the palette's actions.
    await page.goto(session.at("/issue/ENG-2"));
    await page.getByRole("status", { name: "Archived" }).waitFor();
    await page.getByRole("button", { name: "Restore" }).click();
    await expect.poll(async () => (await tracker.issues.get("ENG-2")).archivedAt).toBeNull();
    await page.keyboard.press("Control+k");
    await page.getByRole("option", { name: "Archive ENG-2" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "ENG-2 archived" }).count()).toBe(1);
    await page.goto(session.at("/team/ENG/board"));
    await expect.poll(() => onBoard("Keep this one on the board").count()).toBe(1);
    expect(await onBoard("Stale spike to archive").count()).toBe(0);
  });

  test("Undo in the toast unarchives: the issue is back on the board", async () => {
    await page.goto(session.at("/issue/ENG-1"));
    await page.getByRole("button", { name: "Archive", exact: true }).click();
    await page.waitForURL(session.at("/team/ENG/board"));
    await expect.poll(() => onBoard("Keep this one on the board").count()).toBe(0);
    const toast = page.getByRole("status").filter({ hasText: "ENG-1 archived" });
    await toast.getByRole("button", { name: "Undo" }).click();
    await expect.poll(() => onBoard("Keep this one on the board").count()).toBe(1);
    await expect.poll(async () => (await tracker.issues.get("ENG-1")).archivedAt).toBeNull();
    await expect.poll(() => page.getByText("ENG-1 restored").count()).toBe(1);
  });

  test("the list's filter 'Archived only' finds archived issues again, and opens one", async () => {
    await tracker.issues.create({ team: "ENG", title: "Archived and looked for" });
    const [made] = (await tracker.issues.list({ team: "ENG", q: "Archived and looked for" })).items;
    await tracker.issues.archive(made!.identifier);
    await page.goto(session.at("/team/ENG/list"));
    const rows = page.locator("tr.issue-row td.col-title");
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    expect(await rows.allTextContents()).not.toContain("Archived and looked for");
    await page.getByRole("button", { name: "Add a filter" }).click();
    await page.getByRole("option", { name: "Archived only" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("archived")).toBe("true");
    await expect.poll(() => rows.allTextContents()).toContain("Archived and looked for");
    const archived = (await tracker.issues.list({ team: "ENG", archived: "true" })).items;
    expect(await rows.count()).toBe(archived.length);
    await page.getByRole("link", { name: "Archived and looked for" }).click();
    await page.getByRole("status", { name: "Archived" }).waitFor();
  });

  test("an archived issue opened by its URL shows the banner, and Restore puts it back", async () => {
    await tracker.issues.archive("ENG-3");
    await page.goto(session.at("/issue/ENG-3"));
    const banner = page.getByRole("status", { name: "Archived" });
    await expect.poll(() => banner.textContent()).toMatch(/^Archived .*hidden from boards/);
    expect(await page.getByRole("button", { name: "Archive", exact: true }).count()).toBe(0);
    await banner.getByRole("button", { name: "Restore" }).click();
    await expect.poll(() => banner.count()).toBe(0);
    await expect.poll(async () => (await tracker.issues.get("ENG-3")).archivedAt).toBeNull();
    await expect.poll(() => page.getByRole("button", { name: "Archive", exact: true }).count()).toBe(1);
    await page.goto(session.at("/team/ENG/board"));
    await expect.poll(() => onBoard("Already archived idea").count()).toBe(1);
  });
});
