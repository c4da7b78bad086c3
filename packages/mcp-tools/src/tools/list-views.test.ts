import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools();

describe("list_views", () => {
  it("lists your saved views with their filters, and refuses an argument it does not take", async () => {
    expect((await call("list_views", {})).text).toBe("My overdue (issues, team ENG) special=overdue");
    const bad = await call("list_views", { name: "My overdue" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/Input validation error[\s\S]*name/);
  });
});
