import { describe, expect, it } from "vitest";
import { connectClient, textOf } from "./test/connect.js";
import { anIssue, fakeTracker, json, problem } from "./test/fake-api.js";
import { parseToolsets } from "./toolsets.js";

const team = {
  id: "00000000-0000-4000-8000-00000000000e",
  key: "ENG",
  name: "Engineering",
  personal: false,
  cyclesEnabled: false,
  cycleLengthWeeks: 2,
  estimateScale: "none",
  states: ["Backlog", "Todo", "In Progress", "Done"].map((name, i) => ({
    id: `s${i}`,
    name,
    type: "started",
  })),
};

describe("tool server over MCP", () => {
  it("search_issues passes the filters and answers one compact line per issue", async () => {
    const issues = [
      anIssue({ identifier: "ENG-12", title: "Login fails", priority: 2 }),
      anIssue({
        identifier: "ENG-13",
        title: "Slow board",
        priority: 0,
        assignee: null,
        state: { id: "s", name: "Todo", type: "unstarted" },
      }),
    ];
    const { tracker, sent } = fakeTracker(() => json(200, { issues, nextOffset: 2 }));
    const client = await connectClient(tracker);
    const result = await client.callTool({
      name: "search_issues",
      arguments: { team: "ENG", assignee: "me", special: ["overdue", "blocked"], query: "login", limit: 2 },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(
      "ENG-12  [In Progress]  P2  Login fails  @ada@example.com\n" +
        "ENG-13  [Todo]  P-  Slow board\n" +
        "(1-2 shown; more with offset 2)",
    );
    const query = sent[0]!.query;
    expect(Object.fromEntries(query)).toEqual({
      team: "ENG",
      assignee: "me",
      special: "overdue,blocked",
      q: "login",
      limit: "2",
    });
  });

  it("search_issues answers the full payload with format json", async () => {
    const page = { issues: [anIssue()], nextOffset: null };
    const { tracker } = fakeTracker(() => json(200, page));
    const client = await connectClient(tracker);
    const result = await client.callTool({ name: "search_issues", arguments: { format: "json" } });
    expect(JSON.parse(textOf(result))).toEqual(page);
  });

  it("an unknown state comes back as isError with the team's valid state names", async () => {
    const { tracker } = fakeTracker((req) =>
      req.path === "/teams"
        ? json(200, { teams: [team] })
        : problem(400, "invalid_request", 'Team ENG has no state "Doing".', {
            errors: [{ path: "/query/state", message: "unknown state" }],
          }),
    );
    const client = await connectClient(tracker);
    const result = await client.callTool({
      name: "search_issues",
      arguments: { team: "eng", state: "Doing" },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('invalid_request: Team ENG has no state "Doing".');
    expect(textOf(result)).toContain('Valid states for ENG: "Backlog", "Todo", "In Progress", "Done".');
  });

  it("a rejected key comes back as isError telling to set TRACKER_API_KEY", async () => {
    const { tracker } = fakeTracker(() => problem(401, "unauthenticated", "Unknown API key."));
    const client = await connectClient(tracker);
    const result = await client.callTool({ name: "get_issue", arguments: { identifier: "ENG-1" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/unauthenticated: Unknown API key\.\n.*Set TRACKER_API_KEY/);
  });

  it("update_issue turns `none` into unassign and reports the issue", async () => {
    const { tracker, sent } = fakeTracker(() =>
      json(200, { issue: anIssue({ identifier: "ENG-5", assignee: null }) }),
    );
    const client = await connectClient(tracker);
    const result = await client.callTool({
      name: "update_issue",
      arguments: { identifier: "ENG-5", assignee: "none", priority: "urgent", state: "Done" },
    });
    expect(sent[0]).toMatchObject({ method: "PATCH", path: "/issues/ENG-5" });
    expect(sent[0]!.body).toEqual({ state: "Done", priority: 1, assignee: null });
    expect(textOf(result)).toMatch(/^Updated ENG-5 {2}\[In Progress\] {2}P2/);
  });

  it("offers only the chosen toolsets", async () => {
    const { tracker } = fakeTracker(() => json(200, {}));
    const client = await connectClient(tracker, parseToolsets("teams,workspace"));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["list_teams", "list_users", "whoami"]);
    expect(() => parseToolsets("issues,labels")).toThrow(
      /Unknown toolset labels.*all, issues, teams, workspace/,
    );
  });
});
