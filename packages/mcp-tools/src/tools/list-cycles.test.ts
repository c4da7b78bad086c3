import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("list_cycles", () => {
  it("shows the active cycle with its issues, and names the teams for an unknown one", async () => {
    await ws.sdk.cycles.create({ team: "ENG", name: "Sprint 1" });
    await ws.sdk.issues.update("ENG-3", { cycle: "current" });
    const good = await call("list_cycles", { team: "ENG", current: true });
    expect(good.text).toMatch(/^\* cycle 1 "Sprint 1"/);
    expect(good.text).toContain("ENG-3");
    // Its progress, counted by the server over the whole cycle.
    expect(good.text.split("\n")[0]).toMatch(/ · \d\/1 done, 1 issue$/);
    const bad = await call("list_cycles", { team: "NOPE" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/not_found[\s\S]*Team keys you can use: ENG, OPS/);
  });
});
