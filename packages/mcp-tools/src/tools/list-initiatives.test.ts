import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools();

describe("list_initiatives", () => {
  it("lists initiatives by status, and refuses a sort the contract does not have", async () => {
    expect((await call("list_initiatives", { status: ["active"] })).text).toMatch(
      /^Q3 Growth \[active\] \w+ \d+% .*1 projects\n/,
    );
    const bad = await call("list_initiatives", { sort: "size" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/Input validation error[\s\S]*sort/);
  });
});
