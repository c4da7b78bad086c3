import type { Tracker } from "@tracker/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type BoardSession, openBoardSession, recordApiRequests, signIn } from "./test/session.js";

// Issue 34, "The team's day on the web board": what a daily user met, each checked as they met it, in a
// real Chromium at 1280 px (and 390 px for a phone) against a real server.
let session: BoardSession;
let tracker: Tracker;
let page: Page;

const LONG_WORD = `Supercalifragilistic${"expialidocious".repeat(6)}`;

beforeAll(async () => {
  session = await openBoardSession("Acme Day");
  ({ tracker, page } = session);
  await page.setViewportSize({ width: 1280, height: 800 });
  await tracker.teams.create({ name: "Operations", key: "OPS" });
  await tracker.issues.create({ team: "ENG", title: "Fix the login form", state: "Todo", priority: 2 }); // ENG-1
  await tracker.issues.create({ team: "ENG", title: `A title with ${LONG_WORD} in it`, state: "Todo" }); // ENG-2
  await tracker.issues.create({ team: "ENG", title: "Ship dark mode", state: "In Progress" }); // ENG-3
  await tracker.labels.create({ name: "Bug", color: "#d73a4a" });
  await tracker.labels.create({ name: "Frontend", color: "#1d76db" });
  // A column longer than the screen.
  await tracker.issues.createMany(
    Array.from({ length: 60 }, (_, n) => ({ team: "ENG", title: `Backlog item ${n + 1}`, state: "Backlog" })),
  );
  await signIn(session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

const column = (state: string) => page.locator(`section.column[data-state="${state}"]`);
const focused = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? "");
const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!;

describe("1. create keeps you in flow", () => {
  test("`c` focuses the title; Enter creates in the page's team; the board stays", async () => {
    await page.goto(session.at("/team/ENG/board"));
    await expect.poll(() => column("Todo").locator(".card").count()).toBe(2);
    await page.locator("main h1").click();
    await page.keyboard.press("c");
    const dialog = page.getByRole("dialog", { name: "New issue" });
    await expect.poll(focused).toBe("Issue title");
    await page.keyboard.type("Typed straight away");
    await page.keyboard.press("Enter");
    await expect
      .poll(async () => (await tracker.issues.list({ team: "ENG", q: "Typed straight away" })).items.length)
      .toBe(1);
    const [created] = (await tracker.issues.list({ team: "ENG", q: "Typed straight away" })).items;
    expect(created?.team.key).toBe("ENG");
    await expect.poll(() => dialog.count()).toBe(0);
    expect(page.url()).toBe(session.at("/team/ENG/board"));
  });

  test("every field the API takes on create, Ctrl-Enter, and create more", async () => {
    const project = await tracker.projects.create({ name: "Launch", teams: ["ENG"] });
    await page.goto(session.at("/team/ENG/board"));
    await page.getByRole("button", { name: "New issue" }).click();
    const dialog = page.getByRole("dialog", { name: "New issue" });
    await dialog.getByLabel("Issue title").fill("Everything at once");
    await dialog.getByLabel("Description").fill("With **all** fields.");
    for (const [field, option] of [
      ["State", "In Review"],
      ["Priority", "High"],
      ["Assignee", "Ada Lovelace"],
      ["Project", "Launch"],
    ] as const) {
      await dialog.getByRole("button", { name: new RegExp(`^${field}`) }).click();
      await page.getByRole("option", { name: option }).click();
    }
    await dialog.getByRole("button", { name: /^Labels/ }).click();
    await page.getByRole("option", { name: "Bug" }).click();
    await page.getByRole("option", { name: "Frontend" }).click();
    await page.keyboard.press("Escape");
    await dialog.getByLabel("Estimate").fill("3");
    await dialog.getByLabel("Due date").fill("2030-05-01");
    await dialog.getByLabel("Parent issue").fill("ENG-1");
    await dialog.getByLabel("Create more").check();
    await dialog.getByLabel("Issue title").focus();
    await page.keyboard.press("Control+Enter");
    await expect
      .poll(async () => (await tracker.issues.list({ team: "ENG", q: "Everything at once" })).items.length)
      .toBe(1);
    const [made] = (await tracker.issues.list({ team: "ENG", q: "Everything at once" })).items;
    expect(made).toMatchObject({
      state: { name: "In Review" },
      priority: 2,
      assignee: { name: "Ada Lovelace" },
      project: { id: project.id },
      estimate: 3,
      dueDate: "2030-05-01",
      description: "With **all** fields.",
    });
    expect([...made!.labels].sort()).toEqual(["Bug", "Frontend"]);
    expect((await tracker.issues.get(made!.identifier)).parentId).toBe(
      (await tracker.issues.get("ENG-1")).id,
    );
    // Create more: the dialog stays, emptied, with the title focused again.
    expect(await dialog.count()).toBe(1);
    await expect.poll(() => dialog.getByLabel("Issue title").inputValue()).toBe("");
    await expect.poll(focused).toBe("Issue title");
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
  });
});

describe("2. long words", () => {
  test("a long unbroken word wraps in its card, its list row and its issue page", async () => {
    await page.goto(session.at("/team/ENG/board"));
    await expect.poll(() => column("Todo").locator(".card").count()).toBeGreaterThan(1);
    const widths = await page
      .locator("section.column")
      .evaluateAll((all) => all.map((c) => Math.round(c.getBoundingClientRect().width)));
    expect(new Set(widths).size).toBe(1);
    expect(widths[0]).toBeLessThanOrEqual(300);

    await page.goto(session.at("/team/ENG/list"));
    await expect.poll(() => page.getByText(LONG_WORD, { exact: false }).count()).toBeGreaterThan(0);
    for (const name of ["Priority", "Assignee", "Due"]) {
      const header = page.getByRole("columnheader", { name, exact: true });
      const right = (await header.boundingBox())!;
      expect(right.x + right.width).toBeLessThanOrEqual(1280);
    }

    await page.goto(session.at("/issue/ENG-2"));
    const title = await box(".issue-title");
    const side = await box(".issue-side");
    expect(title.x + title.width).toBeLessThanOrEqual(side.x);
  });
});

describe("3. labels never lost", () => {
  test("ticking Bug then Frontend fast keeps both, and each ticks at once", async () => {
    await page.goto(session.at("/issue/ENG-1"));
    await expect.poll(() => page.locator(".issue-side").count()).toBe(1);
    // The server takes 300 ms to answer each save.
    await page.route("**/api/v1/issues/ENG-1", async (route) => {
      if (route.request().method() === "PATCH") await new Promise((r) => setTimeout(r, 300));
      await route.continue();
    });
    try {
      await page.getByRole("button", { name: /^Labels/ }).click();
      await page.getByRole("option", { name: "Bug" }).click();
      await page.getByRole("option", { name: "Frontend" }).click();
      // Ticked before the server answered.
      expect(await page.getByRole("option", { name: "Bug" }).getAttribute("aria-checked")).toBe("true");
      expect(await page.getByRole("option", { name: "Frontend" }).getAttribute("aria-checked")).toBe("true");
      await page.keyboard.press("Escape");
      await expect
        .poll(async () => [...(await tracker.issues.get("ENG-1")).labels].sort(), { timeout: 10_000 })
        .toEqual(["Bug", "Frontend"]);
      await page.waitForTimeout(800);
      expect([...(await tracker.issues.get("ENG-1")).labels].sort()).toEqual(["Bug", "Frontend"]);
    } finally {
      await page.unroute("**/api/v1/issues/ENG-1");
    }
  });

  test("a label a teammate added meanwhile is kept when I tick another", async () => {
    // The page does not hear of the teammate's change: its stream never connects.
    await page.route("**/api/v1/events**", (route) => route.abort("connectionrefused"));
    try {
      await page.goto(session.at("/issue/ENG-3"));
      await expect.poll(() => page.locator(".issue-side").count()).toBe(1);
      await tracker.issues.update("ENG-3", { addLabels: ["Frontend"] });
      await page.getByRole("button", { name: /^Labels/ }).click();
      await page.getByRole("option", { name: "Bug" }).click();
      await page.keyboard.press("Escape");
      await expect
        .poll(async () => [...(await tracker.issues.get("ENG-3")).labels].sort(), { timeout: 10_000 })
        .toEqual(["Bug", "Frontend"]);
    } finally {
      await page.unroute("**/api/v1/events**");
    }
  });

  test("a refused edit is rolled back with a visible message", async () => {
    await page.goto(session.at("/issue/ENG-1"));
    await expect.poll(() => page.locator(".issue-side").count()).toBe(1);
    await page.route("**/api/v1/issues/ENG-1", (route) =>
      route.request().method() === "PATCH"
        ? route.fulfill({
            status: 400,
            contentType: "application/problem+json",
            body: JSON.stringify({
              type: "about:blank",
              title: "Refused",
              status: 400,
              detail: "Not today.",
            }),
          })
        : route.continue(),
    );
    try {
      await page.getByRole("button", { name: /^Priority/ }).click();
      await page.getByRole("option", { name: "Urgent" }).click();
      await expect
        .poll(() => page.getByRole("alert").allTextContents())
        .toContainEqual(expect.stringContaining("Not today."));
      await expect
        .poll(() => page.getByRole("button", { name: /^Priority/ }).textContent())
        .toContain("High");
    } finally {
      await page.unroute("**/api/v1/issues/ENG-1");
    }
  });
});

describe("5. columns that scroll on their own", () => {
  test("a long column scrolls inside itself, its header stays, and it says how many are loaded", async () => {
    await page.goto(session.at("/team/ENG/board"));
    const backlog = column("Backlog");
    const count = (await tracker.issues.list({ team: "ENG", state: "Backlog", limit: 200 })).items.length;
    expect(count).toBeGreaterThanOrEqual(60);
    await expect.poll(() => backlog.locator(".column-count").textContent()).toBe(String(count));
    // The page itself does not grow past the screen: the column scrolls.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(810);
    const scroller = backlog.locator(".column-scroll");
    await scroller.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    const header = (await backlog.locator("h2").boundingBox())!;
    expect(header.y).toBeGreaterThanOrEqual(0);
    expect(header.y).toBeLessThan(300);
    // Scrolled to its end (again, as cards measured on the way change the column's height).
    await expect
      .poll(async () => {
        await scroller.evaluate((el) => {
          el.scrollTop = el.scrollHeight;
        });
        return backlog.getByRole("link", { name: /Backlog item 1 ?,/ }).count();
      })
      .toBe(1);
    await expect.poll(() => backlog.locator(".column-foot").textContent()).toBe(`All ${count} loaded`);
  });
});

describe("6. offline", () => {
  test("the badge says so within 5 s, a refused move is rolled back, and the board resyncs after", async () => {
    await page.goto(session.at("/team/ENG/board"));
    await expect.poll(() => page.locator(".live-live").count()).toBe(1);
    await page.route("**/api/v1/**", (route) => route.abort("connectionrefused"));
    try {
      session.server.running.server.closeAllConnections();
      await expect
        .poll(() => page.getByRole("status", { name: "Live updates" }).textContent(), { timeout: 5_000 })
        .toMatch(/Reconnecting|Offline/);
      const card = column("Todo").getByRole("link", { name: /ENG-1 / });
      await card.focus();
      await page.keyboard.press("Shift+ArrowRight");
      await expect
        .poll(() => page.getByRole("alert").allTextContents(), { timeout: 30_000 })
        .toContainEqual(expect.stringContaining("ENG-1 stays in Todo"));
      await expect
        .poll(() =>
          column("Todo")
            .getByRole("link", { name: /ENG-1 / })
            .count(),
        )
        .toBe(1);
      await tracker.issues.update("ENG-3", { title: "Ship dark mode while away" });
    } finally {
      await page.unroute("**/api/v1/**");
    }
    await expect.poll(() => page.locator(".live-live").count(), { timeout: 30_000 }).toBe(1);
    await expect
      .poll(() => page.getByRole("link", { name: /Ship dark mode while away/ }).count(), { timeout: 20_000 })
      .toBe(1);
  }, 120_000);
});

describe("8. Markdown", () => {
  test("tables, task lists that tick, autolinks and issue identifiers", async () => {
    await tracker.issues.update("ENG-3", {
      description:
        "| Step | Owner |\n| --- | --- |\n| Build | Ada |\n\n- [ ] write tests\n- [x] ship\n\nSee ENG-1 and https://example.com/docs.\n\n<b>raw</b>",
    });
    await page.goto(session.at("/issue/ENG-3"));
    const description = page.locator(".description");
    await expect.poll(() => description.locator("table td").first().textContent()).toBe("Build");
    expect(await description.locator("b").count()).toBe(0);
    expect(await description.getByRole("link", { name: "https://example.com/docs" }).count()).toBe(1);
    await description.getByRole("link", { name: "ENG-1" }).click();
    await page.waitForURL(session.at("/issue/ENG-1"));
    await page.goBack();
    const task = page.locator(".description").getByRole("checkbox", { name: "write tests" });
    await task.click();
    await expect
      .poll(async () => (await tracker.issues.get("ENG-3")).description)
      .toContain("- [x] write tests");
  });
});

describe("9. small things a daily user trips on", () => {
  test("a list row's title opens the issue, and the tab says where you are", async () => {
    await page.goto(session.at("/team/ENG/list"));
    await expect.poll(() => page.title()).toMatch(/Engineering/);
    await page.getByRole("link", { name: "Fix the login form" }).first().click();
    await page.waitForURL(session.at("/issue/ENG-1"));
    await expect.poll(() => page.title()).toMatch(/ENG-1 Fix the login form/);
  });

  test("a title save costs one update and no extra reads", async () => {
    await page.goto(session.at("/issue/ENG-1"));
    await expect.poll(() => page.locator(".issue-side").count()).toBe(1);
    await page.waitForTimeout(500);
    const requests = recordApiRequests(page);
    try {
      await page.getByRole("button", { name: /Title: Fix the login form/ }).click();
      await page.getByLabel("Title", { exact: true }).fill("Fix the login form for good");
      await page.keyboard.press("Enter");
      await expect
        .poll(async () => (await tracker.issues.get("ENG-1")).title)
        .toBe("Fix the login form for good");
      await page.waitForTimeout(1_500);
      expect(requests.sent.filter((r) => r.startsWith("PATCH"))).toHaveLength(1);
      expect(requests.sent.filter((r) => r.startsWith("GET") && !r.includes("/events"))).toHaveLength(0);
    } finally {
      requests.stop();
    }
  });
});

describe("keyboard and palette", () => {
  test("`?` lists every shortcut; `s` on an issue changes its state; the palette assigns and copies", async () => {
    await page.goto(session.at("/issue/ENG-3"));
    await expect.poll(() => page.locator(".issue-side").count()).toBe(1);
    await page.locator("main h1").click();
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    const text = await help.textContent();
    for (const what of [
      "Create an issue",
      "Command palette",
      "state",
      "assignee",
      "priority",
      "labels",
      "Edit",
    ])
      expect(text).toContain(what);
    await page.keyboard.press("Escape");

    await page.keyboard.press("s");
    await page.keyboard.type("revi");
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await tracker.issues.get("ENG-3")).state.name).toBe("In Review");

    await page.keyboard.press("Control+k");
    await page.keyboard.type("assign eng-3 to me");
    await page.getByRole("option", { name: /Assign ENG-3 to me/ }).click();
    await expect.poll(async () => (await tracker.issues.get("ENG-3")).assignee?.name).toBe("Ada Lovelace");

    await page.keyboard.press("Control+k");
    await page.keyboard.type("branch");
    await page.getByRole("option", { name: /Copy branch name/ }).click();
    await expect
      .poll(() => page.getByRole("status").allTextContents())
      .toContainEqual(expect.stringMatching(/Copied eng-3-ship-dark-mode/));

    // On the board, `p` changes the priority of the focused card.
    await page.goto(session.at("/team/ENG/board"));
    const card = column("In Review").getByRole("link", { name: /ENG-3 / });
    await card.focus();
    await page.keyboard.press("p");
    await page.getByRole("option", { name: "Urgent" }).click();
    await expect.poll(async () => (await tracker.issues.get("ENG-3")).priority).toBe(1);
    // `i` assigns the focused card to me.
    const other = column("Todo").getByRole("link", { name: /ENG-1 / });
    await other.focus();
    await page.keyboard.press("i");
    await expect.poll(async () => (await tracker.issues.get("ENG-1")).assignee?.name).toBe("Ada Lovelace");
  });
});

describe("display", () => {
  test("the list groups by assignee, shows the properties chosen, and a view saves it", async () => {
    await page.goto(session.at("/team/ENG/list"));
    await page.getByRole("button", { name: "Display" }).click();
    await page.getByLabel("Grouping").selectOption({ label: "Assignee" });
    await page.getByRole("checkbox", { name: "Project" }).check();
    await page.getByRole("checkbox", { name: "Labels" }).uncheck();
    await expect
      .poll(() => new URL(page.url()).search)
      .toBe("?group=assignee&show=state,priority,assignee,project,due");
    const groups = page.locator("tr.group-head");
    await expect.poll(() => groups.allTextContents()).toContainEqual(expect.stringMatching(/^Ada Lovelace/));
    expect(await groups.allTextContents()).toContainEqual(expect.stringMatching(/^Unassigned/));
    expect(await page.getByRole("columnheader", { name: "Project" }).count()).toBe(1);
    expect(await page.getByRole("columnheader", { name: "Labels" }).count()).toBe(0);
    await page.getByLabel("Save as a view").fill("By person");
    await page.getByRole("button", { name: "Save view" }).click();
    await expect
      .poll(async () => (await tracker.views.list()).find((v) => v.name === "By person"))
      .toMatchObject({ display: "list", grouping: "assignee", team: expect.anything() });
    // Opened from the saved views, it comes back as it was saved, properties included.
    await page.goto(session.at("/views"));
    await page.getByRole("link", { name: "By person" }).click();
    await expect
      .poll(() => new URL(page.url()).search)
      .toBe("?group=assignee&show=state,priority,assignee,project,due");
  });
});

describe("7. phone, 390 px", () => {
  test("a menu instead of the sidebar, one column at a time, and a stacked issue page", async () => {
    const phone = await session.browser.context.newPage();
    try {
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto(session.at("/team/ENG/board"));
      await expect.poll(() => phone.locator(".card").count()).toBeGreaterThan(0);
      const wide = () => phone.evaluate(() => document.documentElement.scrollWidth);
      expect(await wide()).toBeLessThanOrEqual(390);
      expect(await phone.locator("nav.sidebar").isVisible()).toBe(false);
      await phone.getByRole("button", { name: "Menu" }).click();
      await expect.poll(() => phone.getByRole("link", { name: "Projects" }).isVisible()).toBe(true);
      await phone.keyboard.press("Escape");
      // One column fills the screen; the others are a swipe (or a tab) away.
      const first = (await phone.locator("section.column").first().boundingBox())!;
      expect(first.width).toBeGreaterThan(300);
      expect(first.width).toBeLessThanOrEqual(390);

      await phone.goto(session.at("/team/ENG/list"));
      await expect.poll(() => phone.locator(".issue-row").count()).toBeGreaterThan(0);
      expect(await wide()).toBeLessThanOrEqual(390);

      await phone.goto(session.at("/issue/ENG-3"));
      await expect.poll(() => phone.locator(".description").count()).toBe(1);
      expect(await wide()).toBeLessThanOrEqual(390);
      const text = (await phone.locator(".description").boundingBox())!;
      expect(text.width).toBeGreaterThan(300);
    } finally {
      await phone.close();
    }
  });
});
