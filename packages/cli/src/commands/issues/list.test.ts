import { describe, expect, it } from "vitest";
import { runCli } from "../../cli.js";
import { anIssue, fakeTracker, json, testDeps, testIo } from "../../test/fake-api.js";
import { run } from "./list.js";

const login = anIssue({ identifier: "ENG-1", title: "Login fails on Safari", labels: ["bug", "web"] });
const flaky = anIssue({
  identifier: "ENG-22",
  title: "Flaky\ttest",
  priority: 0,
  assignee: null,
  state: { id: "s", name: "Todo", type: "unstarted" },
});

function onePage() {
  return fakeTracker(() => json(200, { issues: [login, flaky], nextOffset: null }));
}

describe("tracker issues list", () => {
  it("prints an aligned table with a header on a terminal", async () => {
    const { tracker } = onePage();
    const { deps, stdout } = testDeps(tracker, true);
    deps.env = { NO_COLOR: "1" };
    await run({}, deps);
    const lines = stdout.text.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+STATE\s+PRIORITY\s+TITLE\s+ASSIGNEE\s+LABELS\s+UPDATED$/);
    expect(lines[1]).toMatch(
      /^ENG-1\s+In Progress\s+High\s+Login fails on Safari\s+Ada Lovelace\s+bug, web\s+/,
    );
    // Columns line up: every row has its title where the header's TITLE is.
    const titleAt = lines[0]!.indexOf("TITLE");
    expect(lines[1]!.indexOf("Login")).toBe(titleAt);
    expect(lines[2]!.indexOf("Flaky")).toBe(titleAt);
    expect(stdout.text).not.toContain("\t");
  });

  it("prints tab-separated rows without header or colour when piped", async () => {
    const { tracker } = onePage();
    const { deps, stdout } = testDeps(tracker, false);
    await run({}, deps);
    expect(stdout.text).toBe(
      "ENG-1\tIn Progress\tHigh\tLogin fails on Safari\tada@example.com\tbug,web\t2025-01-02T00:00:00.000Z\n" +
        "ENG-22\tTodo\t\tFlaky test\t\t\t2025-01-02T00:00:00.000Z\n",
    );
    expect(stdout.text).not.toContain("\x1b[");
  });

  it("prints the issues as JSON with --json", async () => {
    const { tracker } = onePage();
    const { deps, stdout } = testDeps(tracker);
    await run({ json: true }, deps);
    expect(JSON.parse(stdout.text)).toEqual([login, flaky]);
  });

  it("sends --special overdue,blocked as special=overdue,blocked, with the other filters", async () => {
    const { tracker, sent } = onePage();
    const { io } = testIo(tracker);
    const code = await runCli(
      [
        "issues",
        "list",
        "--special",
        "overdue,blocked",
        "-t",
        "ENG",
        "--state-type",
        "started,unstarted",
        "-l",
        "bug",
        "--assignee",
        "me",
      ],
      io,
    );
    expect(code).toBe(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toBe("/issues");
    expect(sent[0]!.query.get("special")).toBe("overdue,blocked");
    expect(sent[0]!.query.get("team")).toBe("ENG");
    expect(sent[0]!.query.get("stateType")).toBe("started,unstarted");
    expect(sent[0]!.query.get("label")).toBe("bug");
    expect(sent[0]!.query.get("assignee")).toBe("me");
  });

  it("refuses an unknown --special value with exit code 2 and the valid ones", async () => {
    const { tracker, sent } = onePage();
    const { io, stderr } = testIo(tracker);
    expect(await runCli(["issues", "list", "--special", "overdue,late"], io)).toBe(2);
    expect(stderr.text).toContain('invalid value "late" for --special');
    expect(stderr.text).toContain("unstarted_overdue");
    expect(sent).toHaveLength(0);
  });

  it("follows nextOffset to the last page with --all", async () => {
    const pages = [
      { issues: [anIssue(), anIssue()], nextOffset: 2 },
      { issues: [anIssue(), anIssue()], nextOffset: 4 },
      { issues: [anIssue()], nextOffset: null },
    ];
    const { tracker, sent } = fakeTracker((req) =>
      json(200, pages[Number(req.query.get("offset") ?? 0) / 2]),
    );
    const { deps, stdout } = testDeps(tracker);
    await run({ all: true }, deps);
    expect(sent.map((r) => r.query.get("offset"))).toEqual([null, "2", "4"]);
    expect(sent.every((r) => r.query.get("limit") === "200")).toBe(true);
    expect(stdout.text.trimEnd().split("\n")).toHaveLength(5);
  });

  it("stops at --limit and says on a terminal that there is more", async () => {
    const { tracker, sent } = fakeTracker(() => json(200, { issues: [anIssue(), anIssue()], nextOffset: 2 }));
    const { deps, stdout, stderr } = testDeps(tracker, true);
    await run({ limit: "2" }, deps);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.query.get("limit")).toBe("2");
    expect(stdout.text.trimEnd().split("\n")).toHaveLength(3);
    expect(stderr.text).toContain("there are more");
  });
});
