import type { Schemas, Tracker } from "@tracker/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./test/axe.js";
import { type BoardSession, openBoardSession, signIn } from "./test/session.js";

// axe-core over the screens people use most, each with its data shown: no serious or critical violation
// of WCAG 2.1 A/AA (labels, contrast, roles, names).
let session: BoardSession;
let tracker: Tracker;
let page: Page;
let project: Schemas["Project"]["id"];

beforeAll(async () => {
  session = await openBoardSession("Acme Access");
  ({ tracker, page } = session);
  await tracker.projects.create({ name: "Launch", teams: ["ENG"], lead: "me", description: "Ship **it**." });
  await tracker.issues.create({
    team: "ENG",
    title: "Fix the login form",
    state: "Todo",
    priority: 1,
    project: "Launch",
  });
  await tracker.issues.create({ team: "ENG", title: "Ship dark mode", state: "In Progress", labels: [] });
  await tracker.issues.create({ team: "ENG", title: "Write the notes", state: "Done", project: "Launch" });
  await tracker.comments.create("ENG-1", { body: "Seen on **Safari**." });
  await tracker.updates.create({ project: "Launch", title: "Week 1", content: "Going well." });
  project = (await tracker.projects.list()).items[0]!.id;
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe("accessibility", () => {
  test("the sign-in page", async () => {
    await page.goto(session.server.url);
    await expect.poll(() => page.getByLabel("API key").count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the board", async () => {
    await signIn(session);
    await expect.poll(() => page.locator(".board .card").count()).toBe(3);
    await expect.poll(() => page.locator(".live-live").count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the list", async () => {
    await page.goto(session.at("/team/ENG/list?stateType=unstarted,started"));
    await expect.poll(() => page.locator("table.issues tbody tr").count()).toBe(2);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the issue page", async () => {
    await page.goto(session.at("/issue/ENG-1"));
    await expect.poll(() => page.locator(".comment").count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the project page", async () => {
    await page.goto(session.at(`/project/${project}`));
    await expect.poll(() => page.getByRole("article", { name: /Week 1/ }).count()).toBe(1);
    await expect.poll(() => page.locator("table.issues tbody tr").count()).toBe(2);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("a document, and the form that edits it", async () => {
    const document = await tracker.documents.create({
      team: "ENG",
      title: "Runbook",
      content: "# Deploy\n\n- run `make`\n- [the guide](https://example.com/guide)",
    });
    await page.goto(session.at(`/document/${document.id}`));
    await expect.poll(() => page.locator(".document-content code").count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Edit document" }).click();
    await page.getByLabel("Show a preview").check();
    await expect.poll(() => page.getByRole("region", { name: "Preview" }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the palette and the new-issue dialog", async () => {
    await page.goto(session.at("/team/ENG/board"));
    await page.locator("main h1").click();
    await page.keyboard.press("Control+k");
    await page.getByRole("combobox", { name: "Search issues, teams and pages" }).fill("login");
    await expect.poll(() => page.getByRole("option", { name: /ENG-1/ }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await page.keyboard.press("c");
    await expect.poll(() => page.getByRole("dialog", { name: "New issue" }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the pickers, the display menu, the shortcuts and the phone's menu", async () => {
    // A picker inside the new-issue dialog.
    await page
      .getByRole("dialog", { name: "New issue" })
      .getByRole("button", { name: /^Labels/ })
      .click();
    await expect.poll(() => page.getByRole("listbox").count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");

    await page.goto(session.at("/issue/ENG-1"));
    await expect.poll(() => page.locator(".issue-side").count()).toBe(1);
    await page.locator("main h1").click();
    await page.keyboard.press("s");
    await expect.poll(() => page.getByRole("option", { name: "Done" }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await page.keyboard.press("?");
    await expect.poll(() => page.getByRole("dialog", { name: "Keyboard shortcuts" }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");

    await page.goto(session.at("/team/ENG/list?group=assignee"));
    await expect.poll(() => page.locator("tr.group-head").count()).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Display" }).click();
    await expect.poll(() => page.getByLabel("Grouping").count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Add a filter" }).click();
    await expect.poll(() => page.getByRole("option").count()).toBeGreaterThan(3);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");

    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(session.at("/team/ENG/board"));
      await expect.poll(() => page.locator(".board .card").count()).toBe(3);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Menu" }).click();
      await expect.poll(() => page.getByRole("dialog", { name: "Menu" }).count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });
});
