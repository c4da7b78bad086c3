import { createTracker } from "@tracker/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { seriousViolations } from "./test/axe.js";
import { type BoardSession, openBoardSession, signIn } from "./test/session.js";

// A team runs itself from the board: Settings' Labels and Workflow screens, in a real Chromium against a
// real server, as an admin and as a member of the team; axe over each screen at 1280 and 390 px.
let session: BoardSession;
let page: Page;

beforeAll(async () => {
  vi.setConfig({ testTimeout: 90_000 });
  session = await openBoardSession("Acme Workflow");
  await signIn(session);
  page = session.page;
  page.setDefaultTimeout(15_000);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

/** axe at a desktop's and a phone's width (nothing wider than the window), back at the desktop's after. */
async function accessibleAtBothWidths(p: Page) {
  for (const width of [1280, 390]) {
    await p.setViewportSize({ width, height: 900 });
    const wide = await p.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter(
          (el) =>
            el.getBoundingClientRect().right > window.innerWidth + 1 &&
            !el.closest(".table-scroll, .sr-only"),
        )
        .map((el) => `${el.tagName}.${el.className}`)
        .slice(0, 5),
    );
    expect({ width, wide }).toEqual({ width, wide: [] });
    expect({ width, violations: await seriousViolations(p) }).toEqual({ width, violations: [] });
  }
  await p.setViewportSize({ width: 1280, height: 900 });
}

async function openTab(p: Page, tab: "Labels" | "Workflow") {
  await p.goto(session.at("/settings"));
  await p.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: tab }).click();
  await p.getByRole("heading", { name: tab, level: 2 }).waitFor();
}

const stateNames = async () => (await session.tracker.teams.states("ENG")).map((s) => s.name);

describe("settings: labels, as an admin", () => {
  test("lists labels with their issues, creates one with a colour, edits, merges and deletes", async () => {
    const { tracker } = session;
    await tracker.labels.create({ name: "bug", color: "#e5484d" });
    await tracker.labels.create({ name: "defect", color: "#f2994a" });
    const a = await tracker.issues.create({ team: "ENG", title: "Crash on save", labels: ["bug"] });
    const b = await tracker.issues.create({ team: "ENG", title: "Wrong total", labels: ["defect"] });
    const c = await tracker.issues.create({ team: "ENG", title: "Both", labels: ["bug", "defect"] });
    await openTab(page, "Labels");
    const list = page.getByRole("list", { name: "Labels" });
    await expect.poll(() => list.getByRole("listitem", { name: "bug" }).innerText()).toContain("2 issues");

    await page.getByLabel("Label name").fill("perf");
    await page
      .getByRole("group", { name: "Colour of the new label" })
      .getByRole("radio", { name: "#4cb782" })
      .check();
    await page.getByRole("button", { name: "Create label" }).click();
    await list.getByRole("listitem", { name: "perf" }).waitFor();
    expect((await tracker.labels.list()).find((l) => l.name === "perf")?.color).toBe("#4cb782");

    const perf = list.getByRole("listitem", { name: "perf" });
    await perf.getByRole("button", { name: "Edit perf" }).click();
    await perf.getByLabel("Name of perf").fill("performance");
    await perf.getByLabel("Colour of perf: any colour").fill("#123456");
    await accessibleAtBothWidths(page);
    await perf.getByRole("button", { name: "Save perf" }).click();
    await list.getByRole("listitem", { name: "performance" }).waitFor();
    expect((await tracker.labels.list()).find((l) => l.name === "performance")?.color).toBe("#123456");

    const defect = list.getByRole("listitem", { name: "defect" });
    await defect.getByRole("button", { name: "Merge defect" }).click();
    await defect.getByLabel("Merge defect into").selectOption({ label: "bug" });
    await defect.getByRole("button", { name: "Merge defect", exact: true }).click();
    await expect
      .poll(() =>
        page.getByText("defect is merged into bug: 1 issue moved over, 1 already had both.").count(),
      )
      .toBe(1);
    expect((await tracker.labels.list()).map((l) => l.name)).toEqual(["bug", "performance"]);
    for (const issue of [a, b, c])
      expect((await tracker.issues.get(issue.identifier)).labels).toEqual(["bug"]);

    const bug = list.getByRole("listitem", { name: "bug" });
    await bug.getByRole("button", { name: "Delete bug" }).click();
    await expect.poll(() => bug.getByText("3 issues lose bug.").count()).toBe(1);
    await accessibleAtBothWidths(page);
    await bug.getByRole("button", { name: "Delete bug", exact: true }).click();
    await expect.poll(() => list.getByRole("listitem", { name: "bug" }).count()).toBe(0);
    expect((await tracker.issues.get(a.identifier)).labels).toEqual([]);
  });
});

describe("settings: workflow, as an admin", () => {
  test("adds a state, moves it with the keyboard, renames, deletes it moving its issue, and sets a rule", async () => {
    const { tracker } = session;
    await openTab(page, "Workflow");
    const started = page.getByRole("list", { name: "Started", exact: true });
    await expect.poll(() => started.getByRole("listitem").count()).toBe(2);

    const add = page.getByRole("form", { name: "Add a state to ENG" });
    await add.getByLabel("State name").fill("In QA");
    await add.getByLabel("Type").selectOption("started");
    await add.getByRole("radio", { name: "#26b5ce" }).check();
    await add.getByRole("button", { name: "Add state" }).click();
    await started.getByRole("listitem", { name: "In QA" }).waitFor();
    expect(await stateNames()).toEqual([
      "Backlog",
      "Todo",
      "In Progress",
      "In Review",
      "In QA",
      "Done",
      "Canceled",
    ]);
    await accessibleAtBothWidths(page);

    // Up with the keyboard, twice: the focus stays on the moved state's button, then passes to "down".
    const order = async () =>
      (await started.getByRole("listitem").allInnerTexts()).map((t) => t.split("\n")[0]!.trim());
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
    await started.getByRole("button", { name: "Move In QA up" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(order).toEqual(["In Progress", "In QA", "In Review"]);
    await expect.poll(focused).toBe("Move In QA up");
    expect(await stateNames()).toEqual([
      "Backlog",
      "Todo",
      "In Progress",
      "In QA",
      "In Review",
      "Done",
      "Canceled",
    ]);
    await page.keyboard.press("Enter");
    await expect.poll(order).toEqual(["In QA", "In Progress", "In Review"]);
    await expect.poll(focused).toBe("Move In QA down");
    expect(await started.getByRole("button", { name: "Move In QA up" }).isDisabled()).toBe(true);
    expect(await stateNames()).toEqual([
      "Backlog",
      "Todo",
      "In QA",
      "In Progress",
      "In Review",
      "Done",
      "Canceled",
    ]);

    const qa = started.getByRole("listitem", { name: "In QA" });
    await qa.getByRole("button", { name: "Edit In QA" }).click();
    await qa.getByLabel("Name of In QA").fill("QA");
    await qa.getByRole("button", { name: "Save In QA" }).click();
    await started.getByRole("listitem", { name: "QA", exact: true }).waitFor();

    const issue = await tracker.issues.create({ team: "ENG", title: "Check the release", state: "QA" });
    const row = started.getByRole("listitem", { name: "QA", exact: true });
    await row.getByRole("button", { name: "Delete QA" }).click();
    await expect
      .poll(() => row.getByText("QA holds 1 issue: they move to the state you choose.").count())
      .toBe(1);
    expect(await row.getByRole("button", { name: "Delete QA", exact: true }).isDisabled()).toBe(true);
    await row.getByLabel("Move its issues to").selectOption({ label: "In Review (Started)" });
    await accessibleAtBothWidths(page);
    await row.getByRole("button", { name: "Delete QA", exact: true }).click();
    await expect.poll(() => page.getByText("QA is deleted; 1 issue moved to In Review.").count()).toBe(1);
    expect((await tracker.issues.get(issue.identifier)).state.name).toBe("In Review");
    expect(await stateNames()).toEqual(["Backlog", "Todo", "In Progress", "In Review", "Done", "Canceled"]);

    // The last completed state cannot go: the server says why, and it stays.
    const done = page
      .getByRole("list", { name: "Completed", exact: true })
      .getByRole("listitem", { name: "Done" });
    await done.getByRole("button", { name: "Delete Done" }).click();
    await expect.poll(() => done.getByText("Done holds no issues.").count()).toBe(1);
    await done.getByRole("button", { name: "Delete Done", exact: true }).click();
    await expect
      .poll(() => done.getByRole("alert").innerText())
      .toContain("is the last completed state of ENG");
    await done.getByRole("button", { name: "Cancel" }).click();

    const rules = page.getByRole("form", { name: "Set a rule of ENG" });
    await rules.getByLabel("When").selectOption("pr_merged");
    await rules.getByLabel("Move the issue to").selectOption({ label: "Done" });
    await rules.getByRole("button", { name: "Set rule" }).click();
    const said = "The pull request is merged (every project): move to Done";
    await page.getByRole("list", { name: "Rules of ENG" }).getByRole("listitem", { name: said }).waitFor();
    const doneId = (await tracker.teams.states("ENG")).find((s) => s.name === "Done")!.id;
    expect(await tracker.teams.workflows("ENG")).toMatchObject([
      { trigger: "pr_merged", projectId: null, targetStateId: doneId },
    ]);
    await accessibleAtBothWidths(page);
    await page.getByRole("button", { name: `Remove the rule: ${said}` }).click();
    await expect
      .poll(() => page.getByText("No rules: pull requests leave issues where they are.").count())
      .toBe(1);
    expect(await tracker.teams.workflows("ENG")).toEqual([]);
  });
});

// Last: the member signs in on a second page of the same browser, whose storage the admin's page shares.
describe("settings as a member of the team", () => {
  test("a member edits labels without counts and the workflow of their team; a guest is offered neither", async () => {
    const { tracker, server } = session;
    const member = await server.addMember(session.token, "member");
    await tracker.teams.addMember("ENG", member.userId);
    await tracker.labels.create({ name: "ux", color: "#a970ff" });
    await tracker.issues.create({ team: "ENG", title: "Too many clicks", labels: ["ux"] });
    const other = await session.browser.context.newPage();
    other.setDefaultTimeout(15_000);
    await other.goto(server.url);
    await other.evaluate(() => localStorage.clear());
    await signIn(session, other, { token: member.token });

    await openTab(other, "Labels");
    const list = other.getByRole("list", { name: "Labels" });
    const ux = list.getByRole("listitem", { name: "ux" });
    await ux.waitFor();
    expect(await ux.innerText()).not.toContain("issue");
    await other.getByLabel("Label name").fill("docs");
    await other.getByRole("button", { name: "Create label" }).click();
    await list.getByRole("listitem", { name: "docs" }).waitFor();
    await ux.getByRole("button", { name: "Delete ux" }).click();
    await expect.poll(() => ux.getByText("1 issue lose ux.").count()).toBe(1);
    await accessibleAtBothWidths(other);
    await ux.getByRole("button", { name: "Cancel" }).click();

    await openTab(other, "Workflow");
    const add = other.getByRole("form", { name: "Add a state to ENG" });
    await add.getByLabel("State name").fill("Triage");
    await add.getByLabel("Type").selectOption("backlog");
    await add.getByRole("button", { name: "Add state" }).click();
    await other
      .getByRole("list", { name: "Backlog", exact: true })
      .getByRole("listitem", { name: "Triage" })
      .waitFor();
    expect(await stateNames()).toContain("Triage");
    await accessibleAtBothWidths(other);

    // A guest: neither tab is offered, and the server refuses them anyway.
    const guest = await server.addMember(session.token, "guest");
    await tracker.teams.addMember("ENG", guest.userId);
    await other.evaluate(() => localStorage.clear());
    await signIn(session, other, { token: guest.token });
    await other.goto(session.at("/settings"));
    const nav = other.getByRole("navigation", { name: "Settings" });
    // The role is known once the workspace's screen says the guest may not change it.
    await expect
      .poll(() => other.getByText(/Only workspace admins may change the workspace/).count())
      .toBe(1);
    expect(await nav.getByRole("link", { name: "Labels" }).count()).toBe(0);
    expect(await nav.getByRole("link", { name: "Workflow" }).count()).toBe(0);
    const asGuest = createTracker({
      baseUrl: server.url,
      apiKey: guest.token,
      workspace: session.ws,
      maxRetries: 0,
    });
    await expect(asGuest.teams.createState("ENG", { name: "Mine", type: "started" })).rejects.toMatchObject({
      code: "forbidden",
    });
    await other.close();
  });
});
