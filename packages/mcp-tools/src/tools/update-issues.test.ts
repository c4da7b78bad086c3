import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("update_issues", () => {
  it("changes several issues at once, and says what to give when nothing changes", async () => {
    const good = await call("update_issues", {
      identifiers: ["ENG-2", "ENG-6"],
      priority: "high",
      state: "Todo",
    });
    expect(good.text).toMatch(/^Updated:\nENG-2 \[Todo\] P2 @- .*\nENG-6 \[Todo\] P2 @- Rate limit docs$/);
    const bad = await call("update_issues", { identifiers: ["ENG-2"] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^Nothing to change: give at least one of state/);
  });

  it("posts `comment` on each issue it updates, or alone, and never on one it could not update", async () => {
    const res = await call<{ commented: string[] }>("update_issues", {
      identifiers: ["ENG-4", "ENG-999", "ENG-5"],
      priority: "low",
      comment: "Lowered: not in this release.",
    });
    expect(res.text).toMatch(
      /^Updated:\nENG-4 .*\nENG-5 .*\n(people: .*\n)?Commented on ENG-4, ENG-5\.\nFailed:\nENG-999: not_found/,
    );
    expect(res.data.commented).toEqual(["ENG-4", "ENG-5"]);
    for (const id of ["ENG-4", "ENG-5"])
      expect((await ws.sdk.issues.get(id)).comments.map((c) => c.body)).toContain(
        "Lowered: not in this release.",
      );
    const only = await call("update_issues", { identifiers: ["ENG-4"], comment: "Still waiting on design." });
    expect(only.text).toBe("Commented on ENG-4.");
  });

  it("updates what it can of several issues and says which failed and why", async () => {
    const result = await call("update_issues", { identifiers: ["ENG-7", "ENG-999"], assignee: "none" });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /^Updated:\nENG-7 \[Backlog\] P2 @- Search ignores accents\nFailed:\nENG-999: not_found/,
    );
    expect((await ws.sdk.issues.get("ENG-7")).assignee).toBeNull();
  });

  it("says which issues left their project, and which labels it created", async () => {
    await ws.sdk.projects.create({ name: "Mobile", teams: ["ENG"] });
    const result = await call<{ left: string[]; createdLabels: string[] }>("update_issues", {
      identifiers: ["ENG-1", "ENG-3"],
      project: "Mobile",
      addLabels: ["ios", "bug"],
    });
    expect(result.text.split("\n").slice(4)).toEqual([
      'ENG-1 left project "Launch" for "Mobile"',
      "New labels created: ios.",
    ]);
    expect(result.data).toMatchObject({
      left: ['ENG-1 left project "Launch" for "Mobile"'],
      createdLabels: ["ios"],
    });
    const cleared = await call("update_issues", { identifiers: ["ENG-1"], project: null });
    expect(cleared.text.split("\n").at(-1)).toBe('ENG-1 left project "Mobile"');
  });
});
