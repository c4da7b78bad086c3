import type { Tracker } from "@tracker/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type BoardSession, openBoardSession, signIn } from "./test/session.js";

// Issue 34, "at scale": column, group, cycle and project totals from the server (`GET /issues/counts`),
// true however few of their issues are loaded. Issues are made through the batch create (`POST
// /issues/batch`): a Todo column of 230 (more than a page of 200), and a current cycle of 260 of which 60
// are done and 8 canceled (the truth: 60/252), and a project of 215 in a team of its own.
let session: BoardSession;
let tracker: Tracker;
let page: Page;
let projectId = "";

async function createMany(items: Parameters<Tracker["issues"]["createMany"]>[0]) {
  for (let at = 0; at < items.length; at += 100) await tracker.issues.createMany(items.slice(at, at + 100));
}

beforeAll(async () => {
  session = await openBoardSession("Acme Totals");
  ({ tracker, page } = session);
  await page.setViewportSize({ width: 1280, height: 800 });
  await tracker.teams.update("ENG", { cyclesEnabled: true });
  await tracker.cycles.create({ team: "ENG", name: "Big sprint" });
  await createMany(
    Array.from({ length: 230 }, (_, n) => ({ team: "ENG", title: `Todo item ${n + 1}`, state: "Todo" })),
  );
  await createMany(
    Array.from({ length: 260 }, (_, n) => ({
      team: "ENG",
      title: `Sprint item ${n + 1}`,
      state: n < 60 ? "Done" : n < 68 ? "Canceled" : "In Progress",
      cycle: "current" as const,
      labels: n % 2 ? ["bug"] : [],
    })),
  );
  // In a team of its own, so the board's totals above stay ENG's.
  await tracker.teams.create({ name: "Launch team", key: "LCH" });
  const launch = await tracker.projects.create({ name: "Launch", teams: ["LCH"] });
  projectId = launch.id;
  await createMany(
    Array.from({ length: 215 }, (_, n) => ({
      team: "LCH",
      title: `Launch item ${n + 1}`,
      state: n < 43 ? "Done" : "Backlog",
      project: "Launch",
    })),
  );
  await signIn(session);
}, 300_000);

afterAll(async () => {
  await session?.close();
});

const column = (state: string) => page.locator(`section.column[data-state="${state}"]`);
const countOf = (state: string) => column(state).locator(".column-count").textContent();

describe("board columns count every issue, not the loaded ones", () => {
  test("a column holding more issues than its first page shows its true total at once", async () => {
    await page.goto(session.at("/team/ENG/board"));
    await expect.poll(() => countOf("Todo"), { timeout: 10_000 }).toBe("230");
    await expect
      .poll(() => column("Todo").locator(".column-foot").textContent(), { timeout: 10_000 })
      .toMatch(/^200 of 230 loaded/);
    expect(await column("Todo").locator(".card").count()).toBeLessThan(60);
    await expect.poll(() => countOf("In Progress"), { timeout: 10_000 }).toBe("192");
    await expect.poll(() => countOf("Done"), { timeout: 10_000 }).toBe("60");
    await expect.poll(() => countOf("In Review"), { timeout: 10_000 }).toBe("0");
    // With a filter, the totals are the filtered ones.
    await page.goto(session.at("/team/ENG/board?label=bug"));
    await expect.poll(() => countOf("In Progress"), { timeout: 10_000 }).toBe("96");
    await expect.poll(() => countOf("Todo"), { timeout: 10_000 }).toBe("0");
  });

  test("moving a card updates both columns' totals, and they agree with the server after", async () => {
    await page.goto(session.at("/team/ENG/board"));
    await expect.poll(() => countOf("Todo")).toBe("230");
    await expect.poll(() => countOf("In Review")).toBe("0");
    const card = column("Todo").locator(".card").first();
    await card.focus();
    await page.keyboard.press("Shift+ArrowRight");
    await expect.poll(() => countOf("Todo")).toBe("229");
    await expect.poll(() => countOf("In Progress")).toBe("193");
    await expect
      .poll(async () => (await tracker.issues.counts({ team: "ENG", state: "In Progress" })).total)
      .toBe(193);
    // Someone else moves one through the API: the live change moves it between the totals too.
    const someone = (await tracker.issues.list({ team: "ENG", state: "Todo", limit: 1 })).items[0]!;
    await tracker.issues.update(someone.identifier, { state: "In Review" });
    await expect.poll(() => countOf("In Review")).toBe("1");
    await expect.poll(() => countOf("Todo")).toBe("228");
    // A reload shows the same numbers, read afresh.
    await page.reload();
    await expect.poll(() => countOf("Todo")).toBe("228");
    expect(await countOf("In Progress")).toBe("193");
    expect(await countOf("In Review")).toBe("1");
  });

  test("the list's group headers count the whole group", async () => {
    await page.goto(session.at("/team/ENG/list?group=status&sort=title"));
    const head = (name: string) => page.locator("tr.group-head", { hasText: name }).locator(".group-count");
    // The first group in view: 193 in all, of which far fewer are among the 200 loaded (by title).
    await expect.poll(() => head("In Progress").textContent()).toBe("193");
    const loaded = await page.locator("tr.issue-row", { hasText: "In Progress" }).count();
    expect(loaded).toBeLessThan(193);
    await expect.poll(() => page.getByText("200 of 490 issues shown, more to load").count()).toBe(1);
  });
});

describe("the current cycle counts and lists all of its issues", () => {
  test("shows the true done/total and loads past 200", async () => {
    await page.goto(session.at("/team/ENG/cycle"));
    await expect.poll(() => page.locator(".progress").textContent()).toBe("23% · 60/252");
    await expect.poll(() => page.getByText("200 of 260 issues shown, more to load").count()).toBe(1);
    expect(await page.locator("ul.plain li").count()).toBe(200);
    await page.getByRole("button", { name: "Load more issues" }).click();
    await expect.poll(() => page.locator("ul.plain li").count()).toBe(260);
    expect(await page.getByText("260 issues").count()).toBe(1);
    // A change elsewhere is counted without a reload.
    const open = (
      await tracker.issues.list({ team: "ENG", cycle: "current", state: "In Progress", limit: 1 })
    ).items[0]!;
    await tracker.issues.update(open.identifier, { state: "Done" });
    await expect.poll(() => page.locator(".progress").textContent()).toBe("24% · 61/252");
  });
});

describe("a project of more than 200 issues", () => {
  test("shows the server's progress and total, and loads past 200", async () => {
    await page.goto(session.at(`/project/${projectId}`));
    await expect.poll(() => page.locator(".progress").textContent()).toBe("20% · 43/215");
    await expect.poll(() => page.locator(".issue-total").textContent()).toBe("215");
    await expect.poll(() => page.getByText("200 of 215 issues shown, more to load").count()).toBe(1);
    await page.getByRole("button", { name: "Load more issues" }).click();
    await expect.poll(() => page.getByText("215 issues").count()).toBe(1);
  });
});
