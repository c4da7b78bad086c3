import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("move_issues", () => {
  it("moves issues to another team, and names the teams when the target is unknown", async () => {
    expect((await call("move_issues", { identifiers: ["ENG-6"], team: "OPS" })).text).toBe("ENG-6 → OPS-1");
    expect((await ws.sdk.issues.get("ENG-6")).identifier).toBe("OPS-1");
    const bad = await call("move_issues", { identifiers: ["ENG-5"], team: "NOPE" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/not_found: No team "NOPE"[\s\S]*Team keys you can use: ENG, OPS/);
  });
});
