import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools();

describe("get_initiative", () => {
  it("reads an initiative with its projects, and names the initiatives for an unknown one", async () => {
    expect((await call("get_initiative", { initiative: "Q3 Growth" })).text).toMatch(
      /^Q3 Growth \[active\][\s\S]*Projects:\n {2}Launch \[started\]/,
    );
    const bad = await call("get_initiative", { initiative: "Nope" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/not_found: No initiative "Nope"[\s\S]*Initiatives: "Q3 Growth"/);
  });
});
