import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("manage_labels", () => {
  it("creates, renames and merges labels, and says what a merge needs", async () => {
    expect((await call("manage_labels", { action: "create", label: "perf", color: "#ff8800" })).text).toBe(
      'Created label "perf" #ff8800.',
    );
    expect(
      (await call("manage_labels", { action: "rename", label: "perf", newName: "performance" })).text,
    ).toMatch(/^Label "perf" is now "performance"/);
    expect((await call("manage_labels", { action: "merge", label: "defect", into: "bug" })).text).toBe(
      'Merged "defect" into "bug": 2 issues moved over, 0 already had both.',
    );
    expect((await ws.sdk.labels.list()).map((l) => l.name)).not.toContain("defect");
    const bad = await call("manage_labels", { action: "merge", label: "performance" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^merge needs `into`/);
  });
});
