import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools();

describe("list_teams", () => {
  it("lists team keys with their states and types, and refuses a wrong argument type", async () => {
    expect((await call("list_teams", { all: true })).text).toMatch(
      /^ENG Engineering · cycles · states: Backlog \(backlog\), Todo \(unstarted\), In Progress \(started\), In Review \(started\), Done \(completed\), Canceled \(canceled\)\n/,
    );
    const bad = await call("list_teams", { all: "yes" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/Input validation error[\s\S]*all/);
  });
});
