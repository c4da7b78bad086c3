import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("save_project", () => {
  it("creates a project with members, changes one, and says when there is nothing to change", async () => {
    expect(
      (await call("save_project", { name: "Beta", teams: ["ENG"], lead: "me", addMembers: ["me"] })).text,
    ).toMatch(
      /^Created Beta \[backlog\] on_track 0% \(0\/0\) · lead Ada Lovelace · ENG\nmembers: ada@example\.com$/,
    );
    await call("save_project", { project: "Beta", status: "started" });
    expect((await ws.sdk.projects.get("Beta")).status).toBe("started");
    const bad = await call("save_project", { project: "Launch" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^Nothing to change/);
  });
});
