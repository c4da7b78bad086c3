import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("save_view", () => {
  it("saves a view that search_issues runs, and changes it by name", async () => {
    const created = await call("save_view", {
      name: "Urgent bugs",
      filters: { label: ["bug"], stateType: ["backlog", "unstarted", "started"] },
      sort: "priority",
      team: "ENG",
    });
    expect(created.text).toBe(
      'Created view Urgent bugs (issues, team ENG) stateType=backlog,unstarted,started label=bug sort priority. search_issues {"view":"Urgent bugs"} runs it.',
    );
    expect((await call("search_issues", { view: "Urgent bugs" })).text.split("\n")[0]).toMatch(
      /^ENG-1 \[Backlog\] P1 @ada .* Login fails on Safari$/,
    );
    const changed = await call("save_view", { view: "urgent bugs", name: "Urgent bugs", favorite: true });
    expect(changed.text).toMatch(/^Saved view Urgent bugs \(issues, team ENG\) .*label=bug/);
    expect((await ws.sdk.views.list()).find((v) => v.name === "Urgent bugs")?.favorite).toBe(true);
  });

  it("refuses a filter the list query does not have (priority), naming those it has", async () => {
    const refused = await call("save_view", { name: "P1 bugs", filters: { label: ["bug"], priority: [1] } });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(
      /^A saved view of issues cannot filter by priority; its filters are: team, state, /,
    );
    const badValue = await call("save_view", { name: "Odd", filters: { special: ["someday"] } });
    expect(badValue.isError).toBe(true);
    expect(badValue.text).toMatch(/^Filter values not allowed for special/);
    const missing = await call("save_view", { view: "Nope", name: "Nope" });
    // Favorites first, as the contract's listViews orders them.
    expect(missing.text).toBe('No saved view named "Nope". Your views: "Urgent bugs", "My overdue".');
  });
});
