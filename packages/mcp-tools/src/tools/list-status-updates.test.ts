import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools();

describe("list_status_updates", () => {
  it("lists a project's updates with what was completed since, and asks for exactly one subject", async () => {
    expect((await call("list_status_updates", { project: "Launch", candidates: true })).text).toMatch(
      /^No status updates on project Launch yet\.\n\nCompleted since .* \(1\):\n {2}ENG-8 Ship release notes/,
    );
    const bad = await call("list_status_updates", {});
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^Name exactly one subject/);
  });
});
