import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("create_issues", () => {
  it("files several issues in one call, in order, once per key, and none when one is refused", async () => {
    const issues = [
      { team: "ENG", title: "Plan step one", priority: "high" },
      { team: "ENG", title: "Plan step two", labels: ["plan"] },
    ];
    const first = await call<{ issues: { identifier: string; title: string; priority: number }[] }>(
      "create_issues",
      { issues, idempotencyKey: "agent-run-8:plan" },
    );
    expect(first.data.issues.map((r) => r.title)).toEqual(["Plan step one", "Plan step two"]);
    expect(first.data.issues[0]!.priority).toBe(2);
    expect(first.text).toMatch(/^Created 2:\n[\s\S]*\nNew labels created: plan\.$/);
    const again = await call<{ issues: { identifier: string }[] }>("create_issues", {
      issues,
      idempotencyKey: "agent-run-8:plan",
    });
    expect(again.data.issues.map((r) => r.identifier)).toEqual(first.data.issues.map((r) => r.identifier));
    const before = (await ws.sdk.issues.list({ team: "ENG", limit: 200 })).items.length;
    const refused = await call("create_issues", {
      issues: [
        { team: "ENG", title: "Fine" },
        { team: "ENG", title: "Bad", state: "Nowhere" },
      ],
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("Issue 2 of 2");
    expect((await ws.sdk.issues.list({ team: "ENG", limit: 200 })).items.length).toBe(before);
  });

  it("names the teams when an item's team is unknown", async () => {
    const bad = await call("create_issues", { issues: [{ team: "NOPE", title: "Lost" }] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/not_found: Issue 1 of 1: No team "NOPE"[\s\S]*Team keys you can use: ENG, OPS/);
  });
});
