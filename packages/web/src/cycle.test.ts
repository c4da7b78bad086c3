import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type BoardSession, openBoardSession, signIn } from "./test/session.js";

// The cycle page starts the next cycle as the contract's createCycle does without a start: the running
// cycle ends now and its unfinished issues move into the new one (unless unticked); the page says so.
let session: BoardSession;

beforeAll(async () => {
  session = await openBoardSession("Acme Cycles");
  const { tracker } = session;
  await tracker.teams.update("ENG", { cyclesEnabled: true });
  await tracker.cycles.create({ team: "ENG", name: "Sprint one" });
  for (const [title, state] of [
    ["Carry the login fix", "In Progress"],
    ["Carry the docs", "Todo"],
    ["Shipped already", "Done"],
  ] as const)
    await tracker.issues.create({ team: "ENG", title, state, cycle: "current" });
  await signIn(session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe("the cycle page", () => {
  test("starts the next cycle now: the running one ends and its unfinished issues move, as it says", async () => {
    const { page, tracker } = session;
    await page.goto(session.at("/team/ENG/cycle"));
    await expect.poll(() => page.locator("strong", { hasText: "Sprint one" }).isVisible()).toBe(true);
    const rollover = page.getByLabel(/Move the 2 unfinished issues into it/);
    await expect.poll(() => rollover.isChecked()).toBe(true);
    await page.getByRole("button", { name: "Start next cycle" }).click();
    await expect
      .poll(() => page.locator("section.next-cycle").getByRole("status").textContent())
      .toBe("Ended cycle 1, started cycle 2, 2 unfinished issues moved.");
    // The page now shows cycle 2 with the moved issues; the done one stayed in cycle 1.
    await expect.poll(() => page.locator("strong", { hasText: "Cycle 2" }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText("Carry the login fix").isVisible()).toBe(true);
    await expect.poll(() => page.getByText("Shipped already").count()).toBe(0);

    const [two, one] = await tracker.cycles.list("ENG");
    expect(two).toMatchObject({ number: 2, isActive: true });
    expect(one).toMatchObject({ number: 1, isActive: false, endsAt: two!.startsAt });
    const moved = await tracker.issues.list({ team: "ENG", cycle: 2 });
    expect(moved.items.map((i) => i.title).sort()).toEqual(["Carry the docs", "Carry the login fix"]);
  });

  test("unticked, the running cycle still ends and keeps its unfinished issues", async () => {
    const { page, tracker } = session;
    await page.goto(session.at("/team/ENG/cycle"));
    await page.getByLabel(/unfinished issues into it/).uncheck();
    await page.getByRole("button", { name: "Start next cycle" }).click();
    await expect
      .poll(() => page.locator("section.next-cycle").getByRole("status").textContent())
      .toBe("Ended cycle 2, started cycle 3, cycle 2 keeps its unfinished issues.");
    expect((await tracker.issues.list({ team: "ENG", cycle: 2 })).items).toHaveLength(2);
  });
});
