import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("relate_issues", () => {
  it("says which issue is the duplicate of which, from either side", async () => {
    expect(
      (await call("relate_issues", { identifier: "ENG-3", type: "duplicate", issue: "ENG-7" })).text,
    ).toBe("Related: ENG-3 is a duplicate of ENG-7.");
    expect(
      (await call("relate_issues", { identifier: "ENG-2", type: "duplicated_by", issue: "ENG-6" })).text,
    ).toBe("Related: ENG-2 is duplicated by ENG-6.");
    expect((await ws.sdk.issues.relations("ENG-6")).map((r) => `${r.type} ${r.issue.identifier}`)).toEqual([
      "duplicate ENG-2",
    ]);
    const bad = await call("relate_issues", { identifier: "ENG-3", type: "blocks" });
    expect(bad.text).toBe(
      "Give `identifier`, `type` and `issue` to relate two issues, `pairs` for several, or `url` to attach a link.",
    );
  });

  it("relates several pairs in one call, saying each, and goes on past one that fails", async () => {
    const res = await call<{ relations: { change: string }[]; failed: string[] }>("relate_issues", {
      pairs: [
        { identifier: "ENG-1", type: "blocks", issue: "ENG-6" },
        { identifier: "ENG-7", type: "related", issue: "ENG-8" },
        { identifier: "ENG-7", type: "related", issue: "ENG-999" },
      ],
    });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(
      /^Related: ENG-1 blocks ENG-6\.\nRelated: ENG-7 is related to ENG-8\.\nFailed:\nENG-7 related ENG-999: /,
    );
    expect(res.data.relations.map((r) => r.change)).toEqual(["related", "related"]);
    expect((await ws.sdk.issues.relations("ENG-6")).map((r) => `${r.type} ${r.issue.identifier}`)).toContain(
      "blocked_by ENG-1",
    );
    const removed = await call("relate_issues", {
      identifier: "ENG-1",
      type: "blocks",
      issue: "ENG-6",
      pairs: [{ identifier: "ENG-8", type: "related", issue: "ENG-7" }],
      remove: true,
    });
    expect(removed.text).toBe("Removed: ENG-1 blocks ENG-6.\nRemoved: ENG-8 is related to ENG-7.");
  });

  it("relates, recognises an existing relation, removes it, and says what exists when there is none", async () => {
    const args = { identifier: "ENG-5", type: "blocked_by", issue: "ENG-4" };
    expect((await call("relate_issues", args)).text).toBe("Related: ENG-5 is blocked by ENG-4.");
    expect((await call("relate_issues", args)).text).toBe("Already related: ENG-5 is blocked by ENG-4.");
    expect((await ws.sdk.issues.relations("ENG-4")).map((r) => r.type)).toContain("blocks");
    expect((await call("relate_issues", { ...args, remove: true })).text).toBe(
      "Removed: ENG-5 is blocked by ENG-4.",
    );
    const none = await call("relate_issues", {
      identifier: "ENG-5",
      type: "related",
      issue: "ENG-4",
      remove: true,
    });
    expect(none.text).toBe('ENG-5 has no relation "related ENG-4". Its relations: none.');
    const link = { identifier: "ENG-5", url: "https://example.com/spec", linkTitle: "Spec" };
    expect((await call("relate_issues", link)).text).toBe("Linked ENG-5 to https://example.com/spec.");
    expect((await call("relate_issues", link)).text).toBe("ENG-5 already links to https://example.com/spec.");
  });
});
