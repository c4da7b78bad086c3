import type { Tracker } from "@tracker/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type BoardSession, openBoardSession, signIn } from "./test/session.js";

// A column of 2,100 issues (made through the contract's batch create, `POST /issues/batch`): the page holds
// only a window of cards, and scrolling the column reaches its last issue, loading page after page.
const COUNT = 2_100;
let session: BoardSession;
let tracker: Tracker;
let page: Page;

beforeAll(async () => {
  session = await openBoardSession("Acme Big");
  ({ tracker, page } = session);
  await page.setViewportSize({ width: 1280, height: 800 });
  for (let at = 0; at < COUNT; at += 100)
    await tracker.issues.createMany(
      Array.from({ length: Math.min(100, COUNT - at) }, (_, n) => ({
        team: "ENG",
        title: `Imported ${at + n + 1}`,
        state: "Todo",
      })),
    );
  await signIn(session);
}, 300_000);

afterAll(async () => {
  await session?.close();
});

describe("a 2,100-issue column", () => {
  test("holds a window of cards, and scrolling reaches the end", async () => {
    await page.goto(session.at("/team/ENG/board?sort=title"));
    const todo = page.locator('section.column[data-state="Todo"]');
    // The server's count of the column, though 200 of its issues are loaded.
    await expect.poll(() => todo.locator(".column-count").textContent()).toBe(String(COUNT));
    const cards = () => page.locator(".board .card").count();
    expect(await cards()).toBeLessThan(60);
    // Title order: "Imported 999" is the last of them all.
    const scroller = todo.locator(".column-scroll");
    await expect
      .poll(
        async () => {
          await scroller.evaluate((el) => {
            el.scrollTop = el.scrollHeight;
          });
          expect(await cards()).toBeLessThan(60);
          return todo.locator(".column-foot").textContent();
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe(`All ${COUNT} loaded`);
    await expect
      .poll(async () => {
        await scroller.evaluate((el) => {
          el.scrollTop = el.scrollHeight;
        });
        return todo.getByRole("link", { name: /Imported 999 ?,/ }).count();
      })
      .toBe(1);
    expect(await todo.locator(".column-count").textContent()).toBe(String(COUNT));
    // Back to the top: the first cards are rendered again.
    await scroller.evaluate((el) => {
      el.scrollTop = 0;
    });
    await expect.poll(() => todo.getByRole("link", { name: /Imported 1 ?,/ }).count()).toBe(1);
  }, 120_000);

  test("the list renders a window of rows too", async () => {
    await page.goto(session.at("/team/ENG/list?sort=title"));
    await expect.poll(() => page.getByText(`200 of ${COUNT} issues shown, more to load`).count()).toBe(1);
    expect(await page.locator("tr.issue-row").count()).toBeLessThan(80);
  });
});
