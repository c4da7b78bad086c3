import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("save_view", () => {
  it("saves a view of urgent bugs that search_issues runs, and changes it by name", async () => {
    const created = await call("save_view", {
      name: "Urgent bugs",
      filters: { label: ["bug"], priority: ["urgent"], stateType: ["backlog", "unstarted", "started"] },
      sort: "priority",
      team: "ENG",
    });
    expect(created.text).toBe(
      'Created view Urgent bugs (issues, team ENG) stateType=backlog,unstarted,started priority=urgent label=bug sort priority. search_issues {"view":"Urgent bugs"} runs it.',
    );
    // Only the urgent open bug: ENG-1 is the seed's one P1 bug.
    const urgent = (await call("search_issues", { view: "Urgent bugs" })).text
      .split("\n")
      .filter((l) => /^[A-Z]+-\d+ /.test(l));
    expect(urgent).toEqual([expect.stringMatching(/^ENG-1 \[Backlog\] P1 @ada .* Login fails on Safari$/)]);
    // The priorities search_issues shows (P1 … P4, P- none) are taken as numbers too.
    const numbered = await call("save_view", { name: "Top two", filters: { priority: [1, 2, 0] } });
    expect(numbered.text).toMatch(/^Created view Top two \(issues\) priority=urgent,high,none\./);
    const changed = await call("save_view", { view: "urgent bugs", name: "Urgent bugs", favorite: true });
    expect(changed.text).toMatch(/^Saved view Urgent bugs \(issues, team ENG\) .*label=bug/);
    expect((await ws.sdk.views.list()).find((v) => v.name === "Urgent bugs")?.favorite).toBe(true);
  });

  it("refuses a filter the list query does not have (labels for label), naming those it has", async () => {
    const refused = await call("save_view", { name: "P1 bugs", filters: { labels: ["bug"], priority: [1] } });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(
      /^A saved view of issues cannot filter by labels; its filters are: team, state, /,
    );
    const badPriority = await call("save_view", { name: "Odd", filters: { priority: ["asap"] } });
    expect(badPriority.isError).toBe(true);
    expect(badPriority.text).toMatch(/^Filter values not allowed for priority/);
    const badValue = await call("save_view", { name: "Odd", filters: { special: ["someday"] } });
    expect(badValue.isError).toBe(true);
    expect(badValue.text).toMatch(/^Filter values not allowed for special/);
    const missing = await call("save_view", { view: "Nope", name: "Nope" });
    // Favorites first, as the contract's listViews orders them.
    expect(missing.text).toBe(
      'No saved view named "Nope". Your views: "Urgent bugs", "My overdue", "Top two".',
    );
  });
  it("keeps relative dates relative: a view of the next 14 days stays the next 14 days", async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await ws.sdk.issues.create({ team: "ENG", title: "Due in ten days", dueDate: day(10) });
    await ws.sdk.issues.create({ team: "ENG", title: "Due in twenty days", dueDate: day(20) });
    const created = await call("save_view", {
      name: "Due soon",
      filters: { dueAfter: "today", dueBefore: "+14d" },
    });
    expect(created.text).toMatch(/^Created view Due soon \(issues\) dueAfter=today dueBefore=\+14d\./);
    expect((await ws.sdk.views.list()).find((v) => v.name === "Due soon")?.filters).toEqual({
      dueAfter: "today",
      dueBefore: "+14d",
    });
    const viaView = await call("search_issues", { view: "Due soon" });
    expect(viaView.text).toMatch(/^ENG-\d+ \[Backlog\] P- @- due \S+ Due in ten days\n\(1 issue, no more\)$/);
    const computed = await call("search_issues", { dueAfter: day(0), dueBefore: day(14) });
    expect(viaView.text).toBe(computed.text);
    const bad = await call("save_view", { name: "Bad", filters: { dueBefore: "in two weeks" } });
    expect(bad.isError).toBe(true);
  });
});
