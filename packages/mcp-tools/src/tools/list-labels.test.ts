import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools();

describe("list_labels", () => {
  it("lists labels, with issue counts on request, and refuses a cursor it did not give out", async () => {
    expect((await call("list_labels", {})).text).toBe("bug\ndefect\nui\n(3 labels, no more)");
    expect((await call("list_labels", { counts: true })).text).toMatch(/^defect \(2 issues, 2 open\)$/m);
    const bad = await call("list_labels", { cursor: "not-a-cursor" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^That cursor is not one this tool gave out/);
  });
});
