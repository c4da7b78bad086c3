import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools();

describe("post_status_update", () => {
  it("posts an update written from the candidates, and asks for exactly one subject", async () => {
    expect((await call("post_status_update", { project: "Launch", title: "Week 1" })).text).toMatch(
      /^Posted "Week 1" on project Launch, health \w+, citing ENG-8\.\n\nCompleted since/,
    );
    const bad = await call("post_status_update", { project: "Launch", team: "ENG", title: "Two subjects" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^Name exactly one subject/);
  });
});
