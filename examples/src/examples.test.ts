import { createTracker, type Tracker } from "@tracker/sdk";
import { startTestServer, type TestServer } from "@tracker/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importCsv, parseCsv } from "./import-csv.js";
import { releaseNotes } from "./release-notes.js";
import { classify, runTriageAgent } from "./triage-agent.js";
import { triageOverdue } from "./triage-overdue.js";

let srv: TestServer;
let tracker: Tracker;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  srv = await startTestServer();
  const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  tracker = createTracker({ baseUrl: srv.url, apiKey: apiKey.token });
});
afterAll(() => srv.close());

describe("triage-overdue", () => {
  it("comments once a day on open overdue issues only, and only with --apply", async () => {
    const late = await tracker.issues.create({
      team: "ENG",
      title: "Late and owned",
      dueDate: day(-3),
      assignee: "me",
    });
    const orphan = await tracker.issues.create({ team: "ENG", title: "Late and unowned", dueDate: day(-1) });
    await tracker.issues.create({ team: "ENG", title: "Due later", dueDate: day(5) });
    await tracker.issues.create({ team: "ENG", title: "Late but done", dueDate: day(-2), state: "Done" });

    const dry = await triageOverdue(tracker, "ENG", false);
    expect(dry.map((r) => [r.identifier, r.action])).toEqual([
      [late.identifier, "would-comment"],
      [orphan.identifier, "would-comment"],
    ]);
    expect(await tracker.comments.list(late.identifier)).toEqual([]);

    const applied = await triageOverdue(tracker, "ENG", true);
    expect(applied.map((r) => r.action)).toEqual(["commented", "commented"]);
    const [comment] = await tracker.comments.list(orphan.identifier);
    expect(comment!.body).toContain("who can take it?");

    const again = await triageOverdue(tracker, "ENG", true);
    expect(again.map((r) => r.action)).toEqual(["already-nudged-today", "already-nudged-today"]);
    expect(await tracker.comments.list(late.identifier)).toHaveLength(1);
  });
});

describe("release-notes", () => {
  it("lists what the team finished in the window, grouped by label", async () => {
    await tracker.teams.create({ name: "Web", key: "WEB" });
    const a = await tracker.issues.create({ team: "WEB", title: "Faster search", labels: ["Feature"] });
    const b = await tracker.issues.create({ team: "WEB", title: "Crash on save", labels: ["Bug"] });
    await tracker.issues.create({ team: "WEB", title: "Still open", labels: ["Bug"] });
    await tracker.issues.update(a.identifier, { state: "Done" });
    await tracker.issues.update(b.identifier, { state: "Done" });

    const notes = await releaseNotes(tracker, "WEB", 7);
    expect(notes).toContain("# WEB: 2 finished");
    expect(notes).toMatch(/## Bug\n\n- Crash on save \(WEB-2\)/);
    expect(notes).toMatch(/## Feature\n\n- Faster search \(WEB-1\)/);
    expect(notes).not.toContain("Still open");
  });
});

describe("import-csv", () => {
  it("parses quoted fields with commas, quotes and newlines", () => {
    expect(parseCsv('title,description\n"A, b","say ""hi""\nthere"\r\nplain,x\n')).toEqual([
      ["title", "description"],
      ["A, b", 'say "hi"\nthere'],
      ["plain", "x"],
    ]);
  });

  it("files each row, creating labels, and reports the rows the server refused", async () => {
    await tracker.teams.create({ name: "Ops", key: "OPS" });
    const csv = [
      "title,description,priority,labels,dueDate",
      '"Rotate keys","Every 90 days, per policy",2,security;chore,' + day(10),
      "Bad priority,,7,,",
      "Upgrade Postgres,,3,,",
      ",A row without a title,,,",
    ].join("\n");
    const result = await importCsv(tracker, "OPS", csv);
    expect(result.created).toEqual(["OPS-1", "OPS-2"]);
    expect(result.failed).toEqual([
      { line: 3, reason: 'priority "7": expected urgent, high, medium, low, none or 0-4' },
      // The server's reason, field by field, for what it refuses.
      { line: 5, reason: expect.stringMatching(/^invalid_request: .*title/) },
    ]);
    const rotated = await tracker.issues.get("OPS-1");
    expect(rotated).toMatchObject({
      priority: 2,
      description: "Every 90 days, per policy",
      dueDate: day(10),
    });
    expect([...rotated.labels].sort()).toEqual(["chore", "security"]);
  });

  it("takes priority names as the CLI does, in any case", async () => {
    await tracker.teams.create({ name: "Data", key: "DAT" });
    const csv = [
      "title,priority",
      "Pager storm,Urgent",
      "Slow dashboard,high",
      "Tidy docs, medium ",
      "Rename column,LOW",
      "Someday,none",
      "Numbered,1",
      "Made up,critical",
    ].join("\n");

    const result = await importCsv(tracker, "DAT", csv);

    expect(result.failed).toEqual([
      { line: 8, reason: 'priority "critical": expected urgent, high, medium, low, none or 0-4' },
    ]);
    const priorities: Record<string, number> = {};
    for await (const issue of tracker.issues.iterate({ team: "DAT" }))
      priorities[issue.title] = issue.priority;
    expect(priorities).toEqual({
      "Pager storm": 1,
      "Slow dashboard": 2,
      "Tidy docs": 3,
      "Rename column": 4,
      Someday: 0,
      Numbered: 1,
    });
  });
});

describe("triage-agent", () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** Polls `read` until `done` holds, every 25 ms, for up to `ms`. */
  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
      await sleep(25);
    }
  }

  it("matches the first rule the text holds", () => {
    expect(classify("App crashes on save")).toMatchObject({
      rule: { label: "bug", priority: 1 },
      matched: "crashes",
    });
    expect(classify("The list is slow")).toMatchObject({ rule: { label: "performance", priority: 3 } });
    expect(classify("Add dark mode")).toBeUndefined();
  });

  it("acknowledges a delegated issue within 2 s, triages it, asks when unsure and stops when told", async () => {
    await tracker.teams.create({ name: "Support", key: "SUP" });
    const agent = await tracker.agents.create({ name: "triage-bot" });
    const asAgent = createTracker({ baseUrl: srv.url, apiKey: agent.token });
    const controller = new AbortController();
    const log: string[] = [];
    let ready!: () => void;
    const listening = new Promise<void>((r) => {
      ready = r;
    });
    const running = runTriageAgent(asAgent, {
      signal: controller.signal,
      onReady: ready,
      log: (l) => log.push(l),
    });
    await listening;
    try {
      // A bug the rules know: a thought in the history within 2 s, then labelled, prioritised and answered.
      const bug = await tracker.issues.create({
        team: "SUP",
        title: "App crashes on save",
        description: "Stack trace attached.",
      });
      const delegatedAt = Date.now();
      await tracker.issues.delegate(bug.identifier, "triage-bot");
      const history = await until(
        () => tracker.issues.history(bug.identifier),
        (h) => h.events.some((e) => e.type === "agent_activity"),
        2_000,
      );
      expect(Date.now() - delegatedAt).toBeLessThan(2_000);
      const first = history.events.find((e) => e.type === "agent_activity")!;
      expect(first.payload).toMatchObject({ activity: { kind: "thought" } });
      expect(first.actor).toEqual({ id: agent.id, name: "triage-bot" });
      const [session] = await tracker.agentSessions.list({ issue: bug.identifier });
      const done = await until(
        () => tracker.agentSessions.get(session!.id),
        (s) => s.session.state === "complete",
      );
      expect(done.activities.map((a) => a.kind)).toEqual(["thought", "action", "response"]);
      expect(done.activities[2]!.body).toContain('"crashes"');
      // An earlier test made the label "Bug": names match whatever their case.
      const triaged = await tracker.issues.get(bug.identifier);
      expect([triaged.labels.map((l) => l.toLowerCase()), triaged.priority]).toEqual([["bug"], 1]);

      // No rule matches: the agent asks, and waits for the person's answer.
      const vague = await tracker.issues.create({ team: "SUP", title: "Add dark mode" });
      await tracker.issues.delegate(vague.identifier, "triage-bot");
      const [asking] = await tracker.agentSessions.list({ issue: vague.identifier });
      const waiting = await until(
        () => tracker.agentSessions.get(asking!.id),
        (s) => s.session.state === "awaiting_input",
      );
      expect(waiting.activities.map((a) => a.kind)).toEqual(["thought", "elicitation"]);
      await sleep(500);
      expect((await tracker.agentSessions.get(asking!.id)).session.state).toBe("awaiting_input");
      await tracker.agentSessions.reply(asking!.id, "It is slow to load, not a new feature");
      const answered = await until(
        () => tracker.agentSessions.get(asking!.id),
        (s) => s.session.state === "complete",
      );
      expect(answered.activities.map((a) => a.kind)).toEqual([
        "thought",
        "elicitation",
        "prompt",
        "thought",
        "action",
        "response",
      ]);
      expect(await tracker.issues.get(vague.identifier)).toMatchObject({
        labels: ["performance"],
        priority: 3,
      });

      // Stopped while it waits: it posts nothing more.
      const other = await tracker.issues.create({ team: "SUP", title: "Rename the workspace menu" });
      await tracker.issues.delegate(other.identifier, "triage-bot");
      const [third] = await tracker.agentSessions.list({ issue: other.identifier });
      await until(
        () => tracker.agentSessions.get(third!.id),
        (s) => s.session.state === "awaiting_input",
      );
      expect((await tracker.agentSessions.stop(third!.id)).state).toBe("stopped");
      await until(
        async () => log,
        (l) => l.includes(`${other.identifier}: stopped by a person`),
      );
      const after = await tracker.agentSessions.get(third!.id);
      expect(after.activities.map((a) => a.kind)).toEqual(["thought", "elicitation", "stop"]);
    } finally {
      controller.abort();
      await running;
    }
  });
});
