import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("create_issue", () => {
  it("creates an issue that blocks another, and names the teams when the team is unknown", async () => {
    const good = await call("create_issue", {
      team: "ENG",
      title: "Crash when saving a draft",
      labels: ["bug"],
      priority: "high",
      blocks: ["ENG-2"],
    });
    expect(good.text).toBe("Created ENG-9 [Backlog] P2 @- Crash when saving a draft\nblocks ENG-2");
    const bad = await call("create_issue", { team: "NOPE", title: "Lost" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/not_found: No team "NOPE"[\s\S]*Team keys you can use: ENG, OPS/);
  });

  it("says which labels it created because they did not exist", async () => {
    const result = await call<{ createdLabels: string[] }>("create_issue", {
      team: "ENG",
      title: "Slow dashboard",
      labels: ["BUG", "perf", "Perf", "backend"],
    });
    expect(result.text.split("\n").at(-1)).toBe("New labels created: perf, backend.");
    expect(result.data.createdLabels).toEqual(["perf", "backend"]);
    expect((await ws.sdk.labels.list()).map((l) => l.name)).toEqual(
      expect.arrayContaining(["perf", "backend"]),
    );
  });

  it("answers a create re-sent with the same idempotencyKey with the first issue", async () => {
    const args = { team: "ENG", title: "Flaky upload test", idempotencyKey: "agent-run-7:file-bug" };
    const first = await call<{ issue: { identifier: string } }>("create_issue", args);
    const again = await call<{ issue: { identifier: string } }>("create_issue", args);
    expect(again.data.issue.identifier).toBe(first.data.issue.identifier);
    expect((await ws.sdk.issues.list({ team: "ENG", q: "Flaky upload test" })).items).toHaveLength(1);
    const reused = await call("create_issue", { ...args, title: "Something else" });
    expect(reused.isError).toBe(true);
    expect(reused.text).toMatch(/idempotency_key_reused[\s\S]*Use a new key/);
  });

  it("finishes a half-done create when it is re-sent with its key, without a second issue", async () => {
    const args = {
      team: "ENG",
      title: "Cache stampede",
      blocks: ["ENG-999"],
      idempotencyKey: "agent-run-7:stampede",
    };
    const half = await call<{ issue: { identifier: string } }>("create_issue", args);
    expect(half.isError).toBe(true);
    expect(half.text).toMatch(/^Created (ENG-\d+) .*Cache stampede, but relating failed: not_found/);
    expect(half.text).toContain('call again with idempotencyKey "agent-run-7:stampede"');
    const fixed = await call("create_issue", { ...args, blocks: ["ENG-4"] });
    // The body changed (blocks is not sent with the issue), so the create replays and the relation is made.
    expect(fixed.text).toBe(`Created ${half.text.split("\n")[0]!.slice(8).split(", but")[0]}\nblocks ENG-4`);
    expect(
      (await ws.sdk.issues.relations(half.data.issue.identifier)).map(
        (r) => `${r.type} ${r.issue.identifier}`,
      ),
    ).toEqual(["blocks ENG-4"]);
  });
});
