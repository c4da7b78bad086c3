import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools();

describe("get_project", () => {
  it("reads a project with its open issues by priority, and names the projects for an unknown one", async () => {
    expect((await call("get_project", { project: "launch" })).text).toMatch(
      /^Launch \[started\][\s\S]*Open issues by priority:\n {2}ENG-1 /,
    );
    const bad = await call("get_project", { project: "Nope" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/not_found: No project "Nope"[\s\S]*Projects: "Launch"/);
  });
});
