import type { Tracker } from "@tracker/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./test/axe.js";
import { watchCsp } from "./test/csp.js";
import { type BoardSession, openBoardSession, recordApiRequests, signIn } from "./test/session.js";

// The board's finish: the palette's order and fuzzy matching, search as you type, filters by state
// name, many issues at once, `g` chords and the dark theme, in a real Chromium against a real server.
let session: BoardSession;
let tracker: Tracker;
let page: Page;
let csp: Awaited<ReturnType<typeof watchCsp>>;

beforeAll(async () => {
  session = await openBoardSession("Acme Finish");
  ({ tracker, page } = session);
  csp = await watchCsp(page);
  await tracker.teams.create({ name: "Operations", key: "OPS" });
  await tracker.issues.create({ team: "ENG", title: "Rotate the logs", state: "Todo" }); // ENG-1
  await tracker.issues.create({ team: "ENG", title: "Archive old builds", state: "Todo" }); // ENG-2
  await tracker.issues.create({ team: "ENG", title: "Review the pager runbook", state: "In Review" }); // ENG-3
  await tracker.issues.create({ team: "ENG", title: "Ship the export", state: "In Progress" }); // ENG-4
  await tracker.issues.create({ team: "ENG", title: "Tidy the backlog", state: "Backlog" }); // ENG-5
  await tracker.labels.create({ name: "ops", color: "#33aa77" });
  await signIn(session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

const column = (state: string) => page.locator(`section.column[data-state="${state}"]`);
const card = (state: string, identifier: string) =>
  column(state).getByRole("link", { name: new RegExp(`^${identifier} `) });
const palette = () => page.getByRole("combobox", { name: "Search issues, teams and pages" });
const rows = () => page.locator("table.issues tbody tr.issue-row");
const bar = () => page.getByRole("region", { name: "Selected issues" });

describe("the palette", () => {
  test("puts the issue's actions above the search's hits: `archive` and Enter archives the issue shown", async () => {
    await page.goto(session.at("/issue/ENG-1"));
    await expect.poll(() => page.getByRole("button", { name: /Title: Rotate the logs/ }).count()).toBe(1);
    await page.locator("main h1").click();
    await page.keyboard.press("Control+k");
    await palette().fill("archive");
    // ENG-2 is found by the word, and listed below the action.
    await expect.poll(() => page.getByRole("option", { name: /ENG-2 Archive old builds/ }).count()).toBe(1);
    const options = await page.getByRole("option").allTextContents();
    expect(options[0]).toContain("Archive ENG-1");
    expect(options.findIndex((o) => o.includes("ENG-2"))).toBeGreaterThan(0);
    expect(await page.locator("[cmdk-item][data-selected=true]").textContent()).toContain("Archive ENG-1");
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await tracker.issues.get("ENG-1")).archivedAt).not.toBeNull();
    expect(new URL(page.url()).pathname).toBe(`/${session.ws}/issue/ENG-1`);
    await tracker.issues.unarchive("ENG-1");
  });

  test("matches fuzzily, and finds issues as the text is typed, one request for a burst of keys", async () => {
    await page.goto(session.at("/team/ENG/board"));
    await expect.poll(() => page.locator(".board .card").count()).toBe(5);
    await card("Todo", "ENG-1").focus();
    await page.keyboard.press("Control+k");
    await page.keyboard.type("chst");
    await expect
      .poll(() => page.getByRole("option").first().textContent())
      .toContain("Change state of ENG-1");

    await palette().fill("");
    const log = recordApiRequests(page);
    await page.keyboard.type("pager runbook", { delay: 15 });
    await expect
      .poll(() => page.getByRole("option", { name: /ENG-3 Review the pager runbook/ }).count())
      .toBe(1);
    log.stop();
    const searches = log.sent.filter((r) => /^GET \/api\/\S*issues\?/.test(r) && r.includes("q="));
    // Debounced: not one per key; the last one asks for the whole text.
    expect(searches.length).toBeGreaterThan(0);
    expect(searches.length).toBeLessThan(6);
    expect(decodeURIComponent(searches.at(-1)!.replace(/\+/g, " "))).toContain("q=pager runbook");
    await page.keyboard.press("Escape");
  });
});

describe("the list", () => {
  test("searches as the text is typed, the URL's q kept in step", async () => {
    await page.goto(session.at("/team/ENG/list"));
    await expect.poll(() => rows().count()).toBe(5);
    await page.getByRole("searchbox", { name: "Search" }).pressSequentially("runbook", { delay: 20 });
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("runbook");
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().textContent()).toContain("ENG-3");
    await page.getByRole("searchbox", { name: "Search" }).fill("");
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe(null);
    await expect.poll(() => rows().count()).toBe(5);
    // A key typed while the text before it is still being fetched cancels that fetch.
    const aborted: string[] = [];
    page.on("requestfailed", (r) => {
      if (r.failure()?.errorText.includes("ABORTED"))
        aborted.push(new URL(r.url()).searchParams.get("q") ?? "");
    });
    await page.route(
      (url) => url.searchParams.get("q") === "pag",
      async (route) => {
        await new Promise((done) => setTimeout(done, 1_500));
        await route.continue().catch(() => undefined);
      },
    );
    const box = page.getByRole("searchbox", { name: "Search" });
    await box.pressSequentially("pag");
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("pag");
    await box.pressSequentially("er");
    await expect.poll(() => aborted).toContain("pag");
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("pager");
    await expect.poll(() => rows().count()).toBe(1);
    await page.unrouteAll({ behavior: "ignoreErrors" });

    // A link with `q` shows it in the box.
    await page.goto(session.at("/team/ENG/list?q=logs"));
    await expect.poll(() => rows().count()).toBe(1);
    expect(await page.getByRole("searchbox", { name: "Search" }).inputValue()).toBe("logs");
  });

  test("filters by a state's name, In Review apart from In Progress, as a chip and in the URL", async () => {
    await page.goto(session.at("/team/ENG/list"));
    await expect.poll(() => rows().count()).toBe(5);
    await page.getByRole("button", { name: "Add a filter" }).click();
    await page.getByRole("option", { name: "State: In Review" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("state")).toBe("In Review");
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().textContent()).toContain("ENG-3");
    // A second name replaces the first (the contract's `state` is one name).
    await page.getByRole("button", { name: "Add a filter" }).click();
    await page.getByRole("option", { name: "State: In Progress" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("state")).toBe("In Progress");
    await expect.poll(() => rows().first().textContent()).toContain("ENG-4");
    // The board shows that state's column only.
    await page.getByRole("navigation", { name: "Display" }).getByRole("link", { name: "Board" }).click();
    await expect.poll(() => page.locator("section.column").count()).toBe(1);
    expect(await column("In Progress").count()).toBe(1);
    await page.getByRole("button", { name: "Remove the filter State: In Progress" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("state")).toBe(null);
    await expect.poll(() => page.locator("section.column").count()).toBe(6);
  });
});

describe("many at once", () => {
  test("`x` and Ctrl-click select cards; the bar changes them all; a refusal is put back by itself", async () => {
    await page.goto(session.at("/team/ENG/board"));
    await expect.poll(() => page.locator(".board .card").count()).toBe(5);
    await card("Todo", "ENG-1").focus();
    await page.keyboard.press("x");
    await card("Todo", "ENG-2").click({ modifiers: ["Control"] });
    await card("In Review", "ENG-3").click({ modifiers: ["Control"] });
    await expect.poll(() => bar().getByRole("status").textContent()).toBe("3 selected");
    expect(new URL(page.url()).pathname).toBe(`/${session.ws}/team/ENG/board`);
    // Ctrl-click again unselects.
    await card("In Review", "ENG-3").click({ modifiers: ["Control"] });
    await expect.poll(() => bar().getByRole("status").textContent()).toBe("2 selected");

    // The server refuses ENG-2's change: it alone goes back, with a message naming it.
    await page.route(
      (url) => url.pathname.endsWith("/issues/ENG-2"),
      (route) =>
        route.request().method() === "PATCH"
          ? route.fulfill({
              status: 403,
              contentType: "application/problem+json",
              body: JSON.stringify({
                type: "about:blank",
                title: "Forbidden",
                status: 403,
                detail: "Not yours",
              }),
            })
          : route.continue(),
    );
    await bar().getByRole("button", { name: "Change the priority of 2 issues" }).click();
    await page.getByRole("option", { name: "Urgent" }).click();
    await expect.poll(async () => (await tracker.issues.get("ENG-1")).priority).toBe(1);
    await expect
      .poll(() => page.getByRole("alert").allTextContents())
      .toContainEqual(expect.stringMatching(/1 of 2 not changed.*ENG-2.*Not yours/));
    expect((await tracker.issues.get("ENG-2")).priority).toBe(0);
    await expect.poll(() => card("Todo", "ENG-2").locator(".badge").count()).toBe(0);
    await expect.poll(() => card("Todo", "ENG-1").getByText("Urgent").count()).toBe(1);
    await page.unrouteAll();

    await bar().getByRole("button", { name: "Change the state of 2 issues" }).click();
    await page.getByRole("option", { name: "In Review" }).click();
    await expect.poll(async () => (await tracker.issues.get("ENG-2")).state.name).toBe("In Review");
    expect((await tracker.issues.get("ENG-1")).state.name).toBe("In Review");
    await expect.poll(() => column("In Review").locator(".card").count()).toBe(3);

    await bar().getByRole("button", { name: "Add a label to 2 issues" }).click();
    await page.getByRole("option", { name: "ops" }).click();
    await expect.poll(async () => (await tracker.issues.get("ENG-2")).labels).toEqual(["ops"]);
    expect((await tracker.issues.get("ENG-1")).labels).toEqual(["ops"]);

    await bar().getByRole("button", { name: "Assign 2 issues" }).click();
    await page.getByRole("option", { name: "Ada Lovelace" }).click();
    await expect.poll(async () => (await tracker.issues.get("ENG-2")).assignee?.name).toBe("Ada Lovelace");

    // Esc clears the selection.
    await page.locator("main h1").click();
    await page.keyboard.press("Escape");
    await expect.poll(() => bar().count()).toBe(0);
    expect(await page.locator(".card-selected").count()).toBe(0);
  });

  test("Shift-click takes a range of rows; they move to another team, then are archived", async () => {
    await tracker.issues.create({ team: "ENG", title: "Move me one", state: "Todo" }); // ENG-6
    await tracker.issues.create({ team: "ENG", title: "Move me two", state: "Todo" }); // ENG-7
    await tracker.issues.create({ team: "ENG", title: "Move me three", state: "Todo" }); // ENG-8
    await page.goto(session.at("/team/ENG/list?q=move"));
    await expect.poll(() => rows().count()).toBe(3);
    const identifiers = (await rows().locator(".col-identifier").allTextContents()).map((t) => t.trim());
    await rows()
      .nth(0)
      .getByRole("link")
      .first()
      .click({ modifiers: ["Control"] });
    await rows()
      .nth(2)
      .getByRole("link")
      .first()
      .click({ modifiers: ["Shift"] });
    await expect.poll(() => bar().getByRole("status").textContent()).toBe("3 selected");
    expect(await page.locator("tr.row-selected").count()).toBe(3);
    expect(identifiers.sort()).toEqual(["ENG-6", "ENG-7", "ENG-8"]);

    await bar().getByRole("button", { name: "Move 3 issues to another team" }).click();
    await page.getByRole("option", { name: "Operations" }).click();
    await expect
      .poll(async () => (await tracker.issues.list({ team: "OPS", q: "move" })).items.length)
      .toBe(3);
    await expect.poll(() => rows().count()).toBe(0);
    await expect.poll(() => bar().count()).toBe(0);

    await page.goto(session.at("/team/OPS/list"));
    await expect.poll(() => rows().count()).toBe(3);
    await rows().nth(0).getByRole("link").first().focus();
    await page.keyboard.press("x");
    await page.keyboard.press("j");
    await page.keyboard.press("x");
    await expect.poll(() => bar().getByRole("status").textContent()).toBe("2 selected");
    await bar().getByRole("button", { name: "Archive" }).click();
    await expect.poll(() => rows().count()).toBe(1);
    await expect
      .poll(async () => (await tracker.issues.list({ team: "OPS", archived: "true" })).items.length)
      .toBe(2);
  });
});

describe("the keyboard", () => {
  test("`g` then a letter goes to a page, and `?` lists the chords", async () => {
    await page.goto(session.at("/team/ENG/board"));
    await expect.poll(() => page.locator(".board .card").count()).toBeGreaterThan(0);
    await page.locator("main h1").click();
    const chord = async (letter: string, path: string) => {
      await page.keyboard.press("g");
      await page.keyboard.press(letter);
      await page.waitForURL(session.at(path));
    };
    await chord("i", "/inbox");
    await chord("m", "/my/assigned");
    await chord("p", "/projects");
    await chord("b", "/team/ENG/board");
    await chord("l", "/team/ENG/list");
    await chord("s", "/settings/workspace");
    await page.locator("main h1").click();
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect.poll(() => help.textContent()).toContain("Go to the inbox");
    expect(await help.textContent()).toContain("Select the focused card or row");
    await page.keyboard.press("Escape");
  });
});

test("nothing above was refused by the page's Content-Security-Policy", async () => {
  expect(await csp.violations()).toEqual([]);
});

describe("the dark theme", () => {
  const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const dark = (rgb: string) => {
    const [r = 255, g = 255, b = 255] = rgb.match(/\d+/g)!.map(Number);
    return r + g + b < 150;
  };

  test("follows the system, and passes axe in dark and light (board, selection bar, palette, list)", async () => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(session.at("/team/ENG/board"));
    await expect.poll(() => page.locator(".board .card").count()).toBeGreaterThan(0);
    await expect.poll(async () => dark(await background())).toBe(true);
    for (const scheme of ["dark", "light"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(session.at("/team/ENG/board"));
      await expect.poll(() => page.locator(".board .card").count()).toBeGreaterThan(0);
      await expect.poll(() => page.locator(".live-live").count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await page.locator(".board .card").first().focus();
      await page.keyboard.press("x");
      await expect.poll(() => bar().count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press("Control+k");
      await palette().fill("review");
      await expect.poll(() => page.getByRole("option", { name: /ENG-3/ }).count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await page.goto(session.at("/team/ENG/list?group=status"));
      await expect.poll(() => rows().count()).toBeGreaterThan(0);
      await page.getByRole("button", { name: "Add a filter" }).click();
      await expect.poll(() => page.getByRole("option").count()).toBeGreaterThan(3);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await page.goto(session.at("/issue/ENG-3"));
      await expect.poll(() => page.locator(".issue-side").count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
    }
  });

  test("the menu's theme is remembered: light over a dark system, dark over a light one", async () => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(session.at("/team/ENG/board"));
    await page.getByRole("navigation", { name: "Workspace" }).getByLabel("Theme").selectOption("light");
    await expect.poll(async () => dark(await background())).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem("tracker.theme"))).toBe("light");
    await page.reload();
    await expect.poll(() => page.locator(".board .card").count()).toBeGreaterThan(0);
    expect(dark(await background())).toBe(false);

    await page.emulateMedia({ colorScheme: "light" });
    await page.getByRole("navigation", { name: "Workspace" }).getByLabel("Theme").selectOption("dark");
    await expect.poll(async () => dark(await background())).toBe(true);
    await page.reload();
    expect(dark(await background())).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("navigation", { name: "Workspace" }).getByLabel("Theme").selectOption("system");
    await expect.poll(async () => dark(await background())).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem("tracker.theme"))).toBe(null);
  });
});
