import type { Schemas, Tracker } from "@tracker/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type BoardSession, openBoardSession, signIn } from "./test/session.js";

// Project, initiative and document pages, status updates, and lists longer than a page, in a real
// Chromium against a real server.
let session: BoardSession;
let tracker: Tracker;
let page: Page;
let project: Schemas["Project"];
let initiative: Schemas["Initiative"];

beforeAll(async () => {
  session = await openBoardSession("Acme Pages");
  ({ tracker, page } = session);
  await tracker.initiatives.create({ name: "Faster onboarding", lead: "me" });
  await tracker.projects.create({
    name: "Signup flow",
    teams: ["ENG"],
    initiative: "Faster onboarding",
    lead: "me",
    description: "Make **signing up** take one minute.",
  });
  await tracker.projects.addMember("Signup flow", { user: "me" });
  for (const [title, state] of [
    ["Email sign-up", "Done"],
    ["Google sign-in", "Done"],
    ["Password rules", "In Progress"],
    ["Welcome email", "Todo"],
  ] as const)
    await tracker.issues.create({ team: "ENG", title, state, project: "Signup flow" });
  project = (await tracker.projects.list()).items.find((p) => p.name === "Signup flow")!;
  initiative = (await tracker.initiatives.list()).items.find((i) => i.name === "Faster onboarding")!;
  await signIn(session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

const mainText = () => page.locator("main").textContent();

describe("project and initiative pages", () => {
  test("a project opens from the list and shows its progress, health, lead, members and issues", async () => {
    await page.goto(session.at("/projects"));
    await page.getByRole("link", { name: "Signup flow" }).click();
    await page.waitForURL(session.at(`/project/${project.id}`));
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Signup flow");
    const progress = page.getByRole("progressbar", { name: "Signup flow progress" });
    await expect.poll(() => progress.getAttribute("value")).toBe("50");
    await expect.poll(mainText).toContain("50% · 2/4");
    expect(await mainText()).toMatch(/On track|At risk|Off track/);
    const facts = page.locator("dl.facts");
    expect(await facts.textContent()).toContain("LeadAda Lovelace");
    expect(await facts.textContent()).toContain("MembersAda Lovelace");
    await expect.poll(() => page.locator("section.description strong").textContent()).toBe("signing up");
    await expect.poll(() => page.locator("table.issues tbody tr").count()).toBe(4);
    expect(await mainText()).toContain("Welcome email");
  });

  test("a project's progress follows its issues as they change, without a reload", async () => {
    await page.goto(session.at(`/project/${project.id}`));
    const progress = page.getByRole("progressbar", { name: "Signup flow progress" });
    await expect.poll(() => progress.getAttribute("value")).toBe("50");
    const [passwordRules] = (await tracker.issues.list({ project: project.id, q: "Password rules" })).items;
    await tracker.issues.update(passwordRules!.identifier, { state: "Done" });
    await expect.poll(() => progress.getAttribute("value")).toBe("75");
    await expect.poll(mainText).toContain("75% · 3/4");
    expect(await page.getByRole("row", { name: /Password rules/ }).textContent()).toContain("Done");
  });

  test("an initiative opens from the palette and shows its projects with their progress", async () => {
    await page.locator("main h1").click();
    await page.keyboard.press("Control+k");
    await page.getByRole("combobox", { name: "Search issues, teams and pages" }).fill("onboarding");
    await expect.poll(() => page.getByRole("option", { name: /Faster onboarding/ }).count()).toBe(1);
    await page.keyboard.press("Enter");
    await page.waitForURL(session.at(`/initiative/${initiative.id}`));
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Faster onboarding");
    const row = page.getByRole("row", { name: /Signup flow/ });
    await expect.poll(() => row.textContent()).toContain("75% · 3/4");
    expect(await page.locator("dl.facts").textContent()).toContain("LeadAda Lovelace");
    await row.getByRole("link", { name: "Signup flow" }).click();
    await page.waitForURL(session.at(`/project/${project.id}`));
  });

  test("a status update is posted for a project, with the project's health, and listed first", async () => {
    await page.goto(session.at(`/project/${project.id}`));
    await page.getByLabel("Update title").fill("Week 1");
    await page.getByLabel("What happened (Markdown)").fill("Email sign-up **shipped**.");
    await page.getByRole("button", { name: "Post update" }).click();
    const posted = page.getByRole("article", { name: /Week 1/ });
    await expect.poll(() => posted.count()).toBe(1);
    expect(await posted.locator("strong").textContent()).toBe("shipped");
    const [saved] = await tracker.updates.list({ project: project.id });
    expect(saved).toMatchObject({
      title: "Week 1",
      content: "Email sign-up **shipped**.",
      health: project.health,
    });
    expect(await posted.textContent()).toContain(
      { on_track: "On track", at_risk: "At risk", off_track: "Off track" }[project.health],
    );
    // What was typed is cleared once posted; the next update is listed above it.
    expect(await page.getByLabel("Update title").inputValue()).toBe("");
    await page.getByLabel("Update title").fill("Week 2");
    await page.getByLabel("What happened (Markdown)").fill("Google sign-in shipped.");
    await page.getByRole("button", { name: "Post update" }).click();
    await expect
      .poll(() => page.locator("ol.updates h3").allTextContents())
      .toEqual([expect.stringContaining("Week 2"), expect.stringContaining("Week 1")]);
  });

  test("a status update is posted for an initiative", async () => {
    await page.goto(session.at(`/initiative/${initiative.id}`));
    await page.getByLabel("Update title").fill("Quarter kick-off");
    await page.getByLabel("What happened (Markdown)").fill("Signup flow started.");
    await page.getByRole("button", { name: "Post update" }).click();
    await expect.poll(() => page.getByRole("article", { name: /Quarter kick-off/ }).count()).toBe(1);
    const updates = await tracker.updates.list({ initiative: initiative.id });
    expect(updates.map((u) => u.title)).toEqual(["Quarter kick-off"]);
  });
});

describe("documents", () => {
  test("a document is created, shown with its Markdown rendered safely, and edited", async () => {
    await page.goto(session.at("/documents"));
    await expect.poll(() => page.getByText("No documents yet.").count()).toBe(1);
    await page.getByRole("link", { name: "New document" }).click();
    await page.getByLabel("Title").fill("Deploy runbook");
    await page
      .getByLabel("Content (Markdown)")
      .fill(
        "# Steps\n\n1. run **make release**\n2. watch the `deploy` channel\n\n<img src=x onerror=alert(1)>\n\n[bad](javascript:alert(1)) and [good](https://example.com/runbook)",
      );
    await page.getByRole("button", { name: "Create document" }).click();
    await page.waitForURL(/\/document\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Deploy runbook");
    const content = page.locator(".document-content");
    await expect.poll(() => content.locator("strong").textContent()).toBe("make release");
    expect(await content.locator("ol li").count()).toBe(2);
    expect(await content.locator("code").textContent()).toBe("deploy");
    // Text, never HTML: no element from the text, no script link.
    expect(await content.locator("img").count()).toBe(0);
    expect(await content.textContent()).toContain("<img src=x onerror=alert(1)>");
    expect(await content.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await content.getByRole("link", { name: "good" }).getAttribute("href")).toBe(
      "https://example.com/runbook",
    );
    const [created] = await tracker.documents.list();
    expect(created).toMatchObject({ title: "Deploy runbook", team: { key: "ENG" } });

    await page.getByRole("button", { name: "Edit document" }).click();
    await page.getByLabel("Title").fill("Release runbook");
    await page.getByLabel("Content (Markdown)").fill("Run **make release** and wait.");
    await page.getByRole("button", { name: "Save document" }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Release runbook");
    await expect
      .poll(async () => (await tracker.documents.get(created!.id)).content)
      .toBe("Run **make release** and wait.");

    await page.goto(session.at("/documents"));
    await page.getByRole("searchbox", { name: "Search documents" }).fill("release");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.url()).toBe(session.at("/documents?q=release"));
    await expect.poll(() => page.getByRole("link", { name: "Release runbook" }).count()).toBe(1);
  });

  test("a document that cannot be saved keeps what was typed and says why", async () => {
    await page.goto(session.at("/documents/new"));
    await page.getByLabel("Title").fill("x".repeat(255));
    await page.getByLabel("Content (Markdown)").fill("Kept.");
    // Longer than the contract allows: the form is sent anyway through the field's own limit.
    await page.getByLabel("Title").evaluate((input) => {
      input.removeAttribute("maxlength");
    });
    await page.getByLabel("Title").fill("x".repeat(300));
    await page.getByRole("button", { name: "Create document" }).click();
    await expect.poll(() => page.locator("form [role=alert]").textContent()).toMatch(/title/i);
    expect(await page.getByLabel("Content (Markdown)").inputValue()).toBe("Kept.");
  });
});

describe("long lists", () => {
  test("a list loads the issues past the first page from a keyboard, and a board as it is scrolled", async () => {
    await tracker.teams.create({ name: "Support", key: "SUP" });
    const titles = Array.from({ length: 205 }, (_, n) => `Ticket ${n + 1}`);
    for (let at = 0; at < titles.length; at += 5)
      await Promise.all(
        titles.slice(at, at + 5).map((title) => tracker.issues.create({ team: "SUP", title })),
      );

    await page.goto(session.at("/team/SUP/list?sort=title"));
    const more = page.getByRole("button", { name: "Load more issues" });
    await expect.poll(() => more.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByText("200 of 205 issues shown, more to load").count()).toBe(1);
    // A long list renders only the rows in view.
    expect(await page.locator("table.issues tr.issue-row").count()).toBeLessThan(120);
    await more.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByText("205 issues").count(), { timeout: 15_000 }).toBe(1);
    expect(await more.count()).toBe(0);
    // The last one is reached by scrolling.
    await expect
      .poll(async () => {
        await page.locator(".list-scroll").evaluate((el) => {
          el.scrollTop = el.scrollHeight;
        });
        return page.getByRole("link", { name: "Ticket 99" }).count();
      })
      .toBe(1);
    // The filters stay in the URL; the pages loaded do not.
    expect(page.url()).toBe(session.at("/team/SUP/list?sort=title"));

    // A board column loads its next page as it is scrolled to its end.
    await page.goto(session.at("/team/SUP/board"));
    const backlog = page.locator('section.column[data-state="Backlog"]');
    // The column's true total (the server's count), before its last issues are loaded.
    await expect.poll(() => backlog.locator(".column-count").textContent(), { timeout: 15_000 }).toBe("205");
    await expect.poll(() => backlog.locator(".column-foot").textContent()).toMatch(/^200 of 205 loaded/);
    await expect
      .poll(async () => {
        await backlog.locator(".column-scroll").evaluate((el) => {
          el.scrollTop = el.scrollHeight;
        });
        return backlog.locator(".column-foot").textContent();
      })
      .toBe("All 205 loaded");
    expect(await backlog.locator(".column-count").textContent()).toBe("205");
  });
});
