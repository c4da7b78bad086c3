import { networkInterfaces } from "node:os";
import type { Tracker } from "@tracker/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { watchCsp } from "./test/csp.js";
import { type BoardSession, openBoardSession, recordApiRequests, signIn } from "./test/session.js";

// The board in a real Chromium against a real server: what a person does, checked through the API.
let session: BoardSession;
let tracker: Tracker;
let token: string;
let ws: string;
let page: Page;
let server: BoardSession["server"];
let browser: BoardSession["browser"];
let csp: Awaited<ReturnType<typeof watchCsp>>;

beforeAll(async () => {
  session = await openBoardSession("Acme Web");
  ({ tracker, token, ws, page, server, browser } = session);
  // Every page of the tests below is watched for what the server's Content-Security-Policy refuses.
  csp = await watchCsp(page);
  await tracker.issues.create({ team: "ENG", title: "Fix the login form", state: "Todo", priority: 2 });
  await tracker.issues.create({ team: "ENG", title: "Write the release notes", state: "Todo" });
  await tracker.issues.create({ team: "ENG", title: "Ship dark mode", state: "In Progress" });
  await signIn(session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

const column = (p: Page, state: string) => p.locator(`section.column[data-state="${state}"]`);
const stateOf = async (identifier: string) => (await tracker.issues.get(identifier)).state.name;

describe("the web board", () => {
  test("signing in opens the team's board with a column per workflow state", async () => {
    for (const state of ["Backlog", "Todo", "In Progress", "In Review", "Done", "Canceled"])
      await expect.poll(() => column(page, state).count()).toBe(1);
    await expect.poll(() => column(page, "Todo").locator(".card").count()).toBe(2);
    await expect.poll(() => page.evaluate(() => localStorage.getItem("tracker.apiKey"))).toBe(token);
  });

  test("dragging a card to another column changes its state", async () => {
    const card = column(page, "Todo").getByRole("link", { name: /ENG-1 / });
    await card.dragTo(column(page, "In Review"));
    await expect.poll(() => stateOf("ENG-1")).toBe("In Review");
    await expect
      .poll(() =>
        column(page, "In Review")
          .getByRole("link", { name: /ENG-1 / })
          .count(),
      )
      .toBe(1);
  });

  test("Shift+Arrow on a focused card moves it to the next state, keeping the focus", async () => {
    await page.locator("main").click({ position: { x: 5, y: 5 } });
    const card = column(page, "Todo").getByRole("link", { name: /ENG-2 / });
    await card.focus();
    await page.keyboard.press("Shift+ArrowRight");
    await expect.poll(() => stateOf("ENG-2")).toBe("In Progress");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ""))
      .toContain("ENG-2");
    await page.keyboard.press("Shift+ArrowLeft");
    await expect.poll(() => stateOf("ENG-2")).toBe("Todo");
  });

  test("a change made through the API appears without a reload", async () => {
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = "same page";
    });
    await tracker.issues.update("ENG-3", { title: "Ship dark mode everywhere", state: "Done" });
    await expect
      .poll(
        () =>
          column(page, "Done")
            .getByRole("link", { name: /Ship dark mode everywhere/ })
            .count(),
        {
          timeout: 10_000,
        },
      )
      .toBe(1);
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same page");
  });

  test("`c` creates an issue, the board stays, and the notice opens it", async () => {
    await page.locator("main").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("c");
    const dialog = page.getByRole("dialog", { name: "New issue" });
    await dialog.getByLabel("Issue title").fill("Add an export button");
    await dialog.getByRole("button", { name: /^Priority/ }).click();
    await page.getByRole("option", { name: "Urgent" }).click();
    await dialog.getByRole("button", { name: "Create issue" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(page.url()).toBe(`${server.url}/${ws}/team/ENG/board`);
    await page.getByRole("link", { name: "Open ENG-4" }).click();
    await page.waitForURL(`${server.url}/${ws}/issue/ENG-4`);
    const created = await tracker.issues.get("ENG-4");
    expect(created).toMatchObject({ title: "Add an export button", priority: 1 });
  });

  test("fields of the issue page are edited in place", async () => {
    await page.goto(`${server.url}/${ws}/issue/ENG-1`);
    await page.getByRole("button", { name: /Title: Fix the login form/ }).click();
    await page.getByLabel("Title", { exact: true }).fill("Fix the login form on Safari");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect
      .poll(async () => (await tracker.issues.get("ENG-1")).title)
      .toBe("Fix the login form on Safari");

    await page.getByRole("button", { name: /^Priority/ }).click();
    await page.getByRole("option", { name: "Low" }).click();
    await expect.poll(async () => (await tracker.issues.get("ENG-1")).priority).toBe(4);
    await page.getByRole("button", { name: /^State/ }).click();
    await page.getByRole("option", { name: "Done" }).click();
    await expect.poll(() => stateOf("ENG-1")).toBe("Done");
    await page.getByLabel("Due date").fill("2030-01-31");
    await expect.poll(async () => (await tracker.issues.get("ENG-1")).dueDate).toBe("2030-01-31");

    await page.getByRole("button", { name: "Edit description" }).click();
    await page
      .getByLabel("Description (Markdown)")
      .fill("Steps:\n\n- open **Safari**\n- <script>alert(1)</script>");
    await page.getByRole("button", { name: "Save description" }).click();
    await expect.poll(() => page.locator(".description strong").textContent()).toBe("Safari");
    // Markdown is rendered as text, never as HTML.
    expect(await page.locator(".description script").count()).toBe(0);
  });

  test("comments are added and edited", async () => {
    await page.goto(`${server.url}/${ws}/issue/ENG-1`);
    await page.getByLabel("Add a comment").fill("Reproduced on **iOS** too.");
    await page.getByRole("button", { name: "Comment", exact: true }).click();
    await expect
      .poll(async () => (await tracker.comments.list("ENG-1")).map((c) => c.body))
      .toEqual(["Reproduced on **iOS** too."]);
    await page.getByRole("button", { name: "Edit comment" }).click();
    await page.getByRole("textbox", { name: "Edit comment" }).fill("Reproduced on iOS 18 too.");
    await page.getByRole("button", { name: "Save comment" }).click();
    await expect
      .poll(async () => (await tracker.comments.list("ENG-1"))[0]?.body)
      .toBe("Reproduced on iOS 18 too.");
    await expect.poll(() => page.locator(".comment").first().textContent()).toContain("iOS 18");
  });

  test("an error is shown with its detail, and what was typed stays", async () => {
    await page.goto(`${server.url}/${ws}/issue/ENG-1`);
    await page.getByLabel("Issue", { exact: true }).fill("ENG-999");
    await page.getByRole("button", { name: "Add relation" }).click();
    const alert = page.locator("section[aria-labelledby=relations] [role=alert]");
    await expect.poll(() => alert.textContent()).toMatch(/ENG-999|not found|No issue/i);
    expect(await page.getByLabel("Issue", { exact: true }).inputValue()).toBe("ENG-999");
  });

  test("the old identifier of a moved issue opens the issue under its new one", async () => {
    await tracker.teams.create({ name: "Operations", key: "OPS" });
    await tracker.issues.move({ identifiers: ["ENG-2"], team: "OPS" });
    await page.goto(`${server.url}/${ws}/issue/ENG-2`);
    await page.waitForURL(`${server.url}/${ws}/issue/OPS-1`);
    await expect
      .poll(() => page.getByRole("button", { name: /Title: Write the release notes/ }).count())
      .toBe(1);
  });

  test("the list keeps its filters in the URL", async () => {
    await page.goto(`${server.url}/${ws}/team/ENG/list?stateType=completed&sort=title`);
    await expect.poll(() => page.locator("table.issues tbody tr").count()).toBe(2);
    expect(await page.locator("table.issues tbody tr").first().textContent()).toContain("ENG-1");
    await page.getByRole("button", { name: "Remove the filter State: completed" }).click();
    await expect.poll(() => new URL(page.url()).search).toBe("?sort=title");
  });

  test("the list filters by priority from the filter picker, and shows issue 37's filters as chips", async () => {
    await tracker.issues.create({
      team: "ENG",
      title: "Pager goes off at night",
      priority: 1,
      labels: ["bug"],
    });
    await page.goto(`${server.url}/${ws}/team/ENG/list`);
    await expect.poll(() => page.locator("table.issues tbody tr").count()).toBeGreaterThan(1);
    await page.getByRole("button", { name: "Add a filter" }).click();
    await page.getByRole("option", { name: "Priority: Urgent" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("priority")).toBe("urgent");
    // The rows are the urgent issues the API lists, this one among them.
    const urgent = (await tracker.issues.list({ team: "ENG", priority: ["urgent"] })).items;
    expect(urgent.map((i) => i.title)).toContain("Pager goes off at night");
    await expect.poll(() => page.locator("table.issues tbody tr").count()).toBe(urgent.length);
    const rows = await page.locator("table.issues tbody tr").allTextContents();
    expect(urgent.every((i) => rows.some((r) => r.includes(i.identifier)))).toBe(true);
    await page.getByRole("button", { name: "Remove the filter Priority: Urgent" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("priority")).toBe(null);

    // A link (or a saved view) with the other new filters shows each as a chip, and applies them.
    await page.goto(
      `${server.url}/${ws}/team/ENG/list?parent=none&label=none&assignee=none&estimateMin=2&dueBefore=2026-12-31`,
    );
    for (const chip of [
      "Top-level only",
      "No labels",
      "Assignee: No one",
      "Estimate ≥ 2",
      "Due before 2026-12-31",
    ])
      await expect
        .poll(() => page.getByRole("button", { name: `Remove the filter ${chip}` }).count())
        .toBe(1);
    await expect.poll(() => page.getByText("No issues").count()).toBeGreaterThan(0);
  });

  test("after a dropped connection the stream resumes from the last event and shows what was missed", async () => {
    await page.goto(`${server.url}/${ws}/team/ENG/board`);
    await expect.poll(() => page.locator(".live-live").count()).toBe(1);
    const reopened: (string | undefined)[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/v1/events")
        reopened.push(request.headers()["last-event-id"]);
    });
    // A change the page sees live gives the stream an id to resume from.
    await tracker.issues.update("ENG-4", { title: "Add an export button (CSV)" });
    await expect.poll(() => page.getByRole("link", { name: /Add an export button \(CSV\)/ }).count()).toBe(1);
    // Nothing else in flight: only the event stream is cut mid-answer.
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The server drops every connection (a restart, a proxy): the change made next happens while the page
    // is not connected, and reaches it when its stream reconnects with Last-Event-ID.
    server.running.server.closeAllConnections();
    await tracker.issues.update("ENG-4", { title: "Add an export button (CSV and JSON)" });
    await expect
      .poll(() => page.getByRole("link", { name: /Add an export button \(CSV and JSON\)/ }).count(), {
        timeout: 20_000,
      })
      .toBe(1);
    expect(reopened.length).toBeGreaterThan(0);
    expect(reopened.every((id) => id && /^\d+$/.test(id))).toBe(true);
  });

  test("Ctrl-K jumps to an issue and j/k move between cards", async () => {
    await page.goto(`${server.url}/${ws}/team/ENG/board`);
    await expect.poll(() => page.locator(".board .card").count()).toBeGreaterThan(1);
    await page.locator("main h1").click();
    await page.keyboard.press("j");
    const first = await page.evaluate(() => document.activeElement?.getAttribute("data-issue-id"));
    await page.keyboard.press("j");
    const second = await page.evaluate(() => document.activeElement?.getAttribute("data-issue-id"));
    expect(first).toBeTruthy();
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    await page.keyboard.press("k");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-issue-id"))).toBe(first);

    await page.keyboard.press("Control+k");
    await page.getByRole("combobox", { name: "Search issues, teams and pages" }).fill("export");
    await expect.poll(() => page.getByRole("option", { name: /ENG-4/ }).count()).toBe(1);
    await page.keyboard.press("Enter");
    await page.waitForURL(`${server.url}/${ws}/issue/ENG-4`);
  });

  test("projects and initiatives with progress and health, the current cycle, a saved view applied", async () => {
    const initiative = await tracker.initiatives.create({ name: "Year goals" });
    await tracker.projects.create({ name: "Launch", teams: ["ENG"], initiative: initiative.id });
    await tracker.issues.update("ENG-1", { project: "Launch" });
    await tracker.teams.update("ENG", { cyclesEnabled: true });
    await tracker.cycles.create({ team: "ENG", name: "Sprint one" });
    await tracker.issues.update("ENG-4", { cycle: "current" });
    await tracker.views.create({
      name: "Done by title",
      team: "ENG",
      display: "list",
      filters: { stateType: ["completed"] },
      sort: "title",
    });

    await page.goto(`${server.url}/${ws}/projects`);
    const launch = page.getByRole("row", { name: /Launch/ });
    await expect.poll(() => launch.textContent()).toMatch(/100% · 1\/1/);
    expect(await launch.textContent()).toMatch(/On track|At risk|Off track/);

    await page.goto(`${server.url}/${ws}/initiatives`);
    const goals = page.getByRole("region", { name: /Year goals/ });
    await expect.poll(() => goals.textContent()).toContain("Launch");
    expect(await goals.getByRole("progressbar").count()).toBeGreaterThan(0);

    await page.goto(`${server.url}/${ws}/team/ENG/cycle`);
    await expect.poll(() => page.locator("main").textContent()).toContain("Sprint one");
    await expect.poll(() => page.getByRole("link", { name: "ENG-4" }).count()).toBe(1);

    await page.goto(`${server.url}/${ws}/views`);
    await page.getByRole("link", { name: "Done by title" }).click();
    await expect
      .poll(() => page.url())
      .toBe(`${server.url}/${ws}/team/ENG/list?stateType=completed&sort=title&group=status`);
    await expect.poll(() => page.locator("table.issues tbody tr").count()).toBeGreaterThan(0);
  });

  // Browsers offer crypto.randomUUID (the SDK's idempotency keys) only on https and localhost.
  const lanAddress = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
  test.skipIf(!lanAddress)("over plain http at another address, writes still work", async () => {
    const lan = await browser.context.newPage();
    try {
      const origin = `http://${lanAddress}:${new URL(server.url).port}`;
      await lan.goto(origin);
      expect(await lan.evaluate(() => window.isSecureContext)).toBe(false);
      await lan.getByText("Use an API key").click();
      await lan.getByLabel("API key").fill(token);
      await lan.getByRole("button", { name: "Sign in with the key" }).click();
      await lan.waitForURL(`${origin}/${ws}/team/ENG/board`);
      await lan.locator("main h1").click();
      await lan.keyboard.press("c");
      await lan
        .getByRole("dialog", { name: "New issue" })
        .getByLabel("Issue title")
        .fill("Made from the LAN");
      await lan.getByRole("button", { name: "Create issue" }).click();
      await expect
        .poll(async () => (await tracker.issues.list({ team: "ENG", q: "Made from the LAN" })).items.length)
        .toBe(1);
    } finally {
      await lan.close();
    }
  });

  test("a change made through the API is applied to the board in place: no list is fetched again", async () => {
    await page.goto(`${server.url}/${ws}/team/ENG/board`);
    await expect.poll(() => page.locator(".live-live").count()).toBe(1);
    await expect
      .poll(() =>
        column(page, "Done")
          .getByRole("link", { name: /Ship dark mode everywhere/ })
          .count(),
      )
      .toBe(1);
    const requests = recordApiRequests(page);
    try {
      // Changed: the card moves to its new column.
      await tracker.issues.update("ENG-3", { state: "In Review" });
      await expect
        .poll(
          () =>
            column(page, "In Review")
              .getByRole("link", { name: /Ship dark mode everywhere/ })
              .count(),
          {
            timeout: 10_000,
          },
        )
        .toBe(1);
      // Created elsewhere: the card appears.
      const created = await tracker.issues.create({
        team: "ENG",
        title: "Made by a script",
        state: "Backlog",
      });
      await expect
        .poll(
          () =>
            column(page, "Backlog")
              .getByRole("link", { name: /Made by a script/ })
              .count(),
          {
            timeout: 10_000,
          },
        )
        .toBe(1);
      // Only the changed issues were read, one request each; the board's list was not asked for again.
      const lists = requests.sent.filter((r) => r.startsWith("GET /api/v1/issues?"));
      expect(lists).toEqual([]);
      const reads = requests.sent.filter((r) => /^GET \/api\/v1\/issues\/[A-Z]+-\d+$/.test(r));
      expect(reads).toEqual(["GET /api/v1/issues/ENG-3", `GET /api/v1/issues/${created.identifier}`]);
    } finally {
      requests.stop();
    }
  });

  test("a list drops an issue that stops matching its filters, and takes in one that starts to", async () => {
    await page.goto(`${server.url}/${ws}/team/ENG/list?stateType=backlog`);
    const row = page.locator("table.issues tbody tr", { hasText: "Made by a script" });
    await expect.poll(() => row.count()).toBe(1);
    const identifier = (await row.getByRole("link").first().textContent()) ?? "";
    const requests = recordApiRequests(page);
    try {
      await tracker.issues.update(identifier, { state: "Todo" });
      await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
      await tracker.issues.update(identifier, { state: "Backlog" });
      await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
      expect(requests.sent.filter((r) => r.startsWith("GET /api/v1/issues?"))).toEqual([]);
    } finally {
      requests.stop();
    }
  });

  test("when the server says changes were missed, what is shown is fetched again", async () => {
    await page.goto(`${server.url}/${ws}/team/ENG/board`);
    await expect.poll(() => page.locator(".live-live").count()).toBe(1);
    // The next reconnection presents an id the server does not know (as after a long absence): it
    // answers `reset`, since it cannot replay what happened in between.
    await page.route("**/api/v1/events*", (route) =>
      route.continue({ headers: { ...route.request().headers(), "last-event-id": "not-an-id" } }),
    );
    const requests = recordApiRequests(page);
    try {
      server.running.server.closeAllConnections();
      await tracker.issues.update("ENG-1", { title: "Fix the login form after a reset" });
      await expect
        .poll(() => page.getByRole("link", { name: /Fix the login form after a reset/ }).count(), {
          timeout: 20_000,
        })
        .toBe(1);
      expect(requests.sent.filter((r) => r.startsWith("GET /api/v1/issues?")).length).toBeGreaterThan(0);
    } finally {
      requests.stop();
      await page.unroute("**/api/v1/events*");
    }
  });

  test("the board runs within its Content-Security-Policy: nothing above was refused, and it cannot be framed", async () => {
    const res = await page.goto(`${server.url}/${ws}/team/ENG/board`);
    const policy = res?.headers()["content-security-policy"] ?? "";
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(res?.headers()["x-frame-options"]).toBe("DENY");
    await expect.poll(() => column(page, "Todo").count()).toBe(1);
    // A menu and a dialog (positioned and scroll-locked by inline styles) opened under the policy.
    await page.keyboard.press("Control+k");
    await expect.poll(() => page.getByRole("dialog").count()).toBeGreaterThan(0);
    await page.keyboard.press("Escape");
    expect(await csp.violations()).toEqual([]);
  });

  test("signing out forgets the key", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect.poll(() => page.getByLabel("API key").count()).toBe(1);
    expect(await page.evaluate(() => localStorage.getItem("tracker.apiKey"))).toBeNull();
  });
});
