import { createTracker, type Tracker } from "@tracker/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type BoardSession, openBoardSession, signIn } from "./test/session.js";

// The issue page shows an agent's session live: its activities as the agent posts them, a reply box while
// it waits for an answer, and Stop; in a real Chromium against a real server.
let session: BoardSession;
let tracker: Tracker;
let page: Page;

beforeAll(async () => {
  session = await openBoardSession("Acme Agents");
  ({ tracker, page } = session);
  await page.setViewportSize({ width: 1280, height: 800 });
  await tracker.issues.create({ team: "ENG", title: "Crash on save" }); // ENG-1
  await signIn(session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe("agent sessions on the issue page", () => {
  test("show the agent's activities as they come, take an answer, and stop it", async () => {
    const agent = await tracker.agents.create({ name: "triage-bot" });
    const bot = createTracker({ baseUrl: session.server.url, apiKey: agent.token });
    await page.goto(session.at("/issue/ENG-1"));
    await expect.poll(() => page.getByRole("heading", { name: "Crash on save" }).count()).toBe(1);
    await tracker.issues.delegate("ENG-1", "triage-bot");

    const activities = page.getByRole("list", { name: "triage-bot's activities" }).getByRole("listitem");
    const [opened] = await bot.agentSessions.list();
    await bot.agentSessions.post(opened!.id, { kind: "thought", body: "Reading the report" });
    await expect.poll(() => activities.allInnerTexts()).toEqual(["thought Reading the report"]);

    await bot.agentSessions.post(opened!.id, { kind: "elicitation", body: "Which platform?" });
    await expect.poll(() => activities.count()).toBe(2);
    await page.getByLabel("Answer triage-bot").fill("Linux");
    await page.getByRole("button", { name: "Send" }).click();
    await expect
      .poll(() => activities.allInnerTexts())
      .toEqual(["thought Reading the report", "elicitation Which platform?", "Ada Lovelace Linux"]);
    expect((await bot.agentSessions.get(opened!.id)).session.state).toBe("pending");

    await page.getByRole("button", { name: "Stop" }).click();
    await expect.poll(() => page.getByText("stopped", { exact: true }).count()).toBe(1);
    expect((await bot.agentSessions.get(opened!.id)).activities.at(-1)!.kind).toBe("stop");
  });
});
