import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("get_issue", () => {
  it("reads an issue with its relations said one way only, and points at search for an unknown one", async () => {
    await ws.sdk.issues.addRelation("ENG-3", { issue: "ENG-1", type: "blocks" });
    await ws.sdk.issues.addRelation("ENG-4", { issue: "ENG-1", type: "duplicate" });
    const good = await call("get_issue", { identifier: "eng-1" });
    expect(good.text).toMatch(
      /^ENG-1 \[Backlog\] P1 .*Login fails on Safari\nteam ENG · project "Launch" · labels bug.*\n[\s\S]*Documents:\n {2}Runbook/,
    );
    expect(good.text).toContain("  blocked by ENG-3 [Backlog] Export to CSV drops unicode");
    expect(good.text).toContain("  duplicated by ENG-4 [Backlog] Dark mode contrast on buttons");
    const bad = await call("get_issue", { identifier: "ENG-999" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/not_found: .*ENG-999[\s\S]*search_issues with `query`/);
  });

  it("adds the issue's history, oldest first, with who changed what", async () => {
    await ws.sdk.issues.update("ENG-2", { priority: 1 });
    await ws.sdk.issues.addRelation("ENG-2", { issue: "ENG-5", type: "related" });
    const plain = await call("get_issue", { identifier: "ENG-2" });
    expect(plain.text).not.toContain("History");
    const res = await call("get_issue", { identifier: "ENG-2", history: true });
    expect(res.isError).toBeFalsy();
    const history = (res.data as { history: { type: string; summary: string; actor: string }[] }).history;
    expect(history.map((e) => e.type).slice(-2)).toEqual(["issue_updated", "relation_added"]);
    expect(history[0]!.type).toBe("issue_created");
    expect(history.at(-2)!.summary).toBe("changed priority none → urgent");
    expect(res.text).toMatch(/History, oldest first:\n[\s\S]*: related: related ENG-5$/);
  });

  it("says a cycle, estimate, project or due date change in words, never as a cut-off id", async () => {
    const { cycle: first } = await ws.sdk.cycles.create({ team: "ENG", name: "Sprint 1" });
    const { cycle: next } = await ws.sdk.cycles.create({
      team: "ENG",
      startsAt: first.endsAt,
      rollover: false,
    });
    await ws.sdk.issues.update("ENG-6", { cycle: first.number, estimate: 3, project: "Launch" });
    await ws.sdk.issues.update("ENG-6", { cycle: next.number, estimate: null, dueDate: "2030-01-02" });
    const res = await call("get_issue", { identifier: "ENG-6", history: true });
    const summaries = (res.data as { history: { summary: string }[] }).history.map((e) => e.summary);
    const all = summaries.join("\n");
    for (const words of ["estimate none → 3", `no cycle → cycle ${first.number}`, "project none → Launch"])
      expect(all).toContain(words);
    expect(all).toContain(`cycle ${first.number} → cycle ${next.number}`);
    expect(all).toContain("estimate 3 → none");
    expect(all).toContain("due date none → 2030-01-02");
    expect(res.text).not.toMatch(/\{"id"|[0-9a-f]{8}-[0-9a-f]{4}-/);
  });
});
