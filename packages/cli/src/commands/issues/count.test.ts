import { createTracker } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker issues count`: the built binary against a real server.
const s = useSession();

describe("tracker issues count (real server, real binary)", () => {
  it("prints open issues per state as a table on a terminal, TSV when piped, and the server's JSON", async () => {
    const tracker = createTracker({ baseUrl: s.server.url, apiKey: s.token, fetch: s.server.fetch });
    const created = await tracker.issues.createMany([
      { team: "ENG", title: "One", state: "Todo", labels: ["bug", "web"] },
      { team: "ENG", title: "Two", state: "Todo", assignee: "me", labels: ["bug"] },
      { team: "ENG", title: "Three", state: "In Progress", assignee: "me" },
      { team: "ENG", title: "Four", state: "Done", assignee: "me" },
    ]);
    expect(created).toHaveLength(4);

    const table = terminal(s, ["issues", "count", "--team", "ENG"], { COLUMNS: "100" });
    expect(await table.exited).toBe(0);
    const lines = table
      .plain()
      .trimEnd()
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("[tracker exited"));
    expect(lines[0]).toMatch(/^STATE\s+ISSUES$/);
    // Open issues only, as `issues list`: Done is left out.
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^Todo \(ENG\)\s+2$/),
      expect.stringMatching(/^In Progress \(ENG\)\s+1$/),
      expect.stringMatching(/^Total\s+3$/),
    ]);

    const piped = await s.run(["issues", "count", "--state", "all", "--group-by", "assignee"]);
    expect(piped.code).toBe(0);
    expect(rows(piped)).toEqual([
      [s.user.id, "3"],
      ["Unassigned", "1"],
      ["Total", "4"],
    ]);

    const labels = await s.run(["issues", "count", "--group-by", "label", "--json"]);
    const answer = json<{ total: number; groups: { key: string | null; count: number }[] }>(labels);
    expect(answer.total).toBe(3);
    // ENG-1 carries two labels: counted under both.
    expect(answer.groups.map((g) => g.count)).toEqual([2, 1, 1]);
    expect(answer.groups.at(-1)!.key).toBeNull();

    const bad = terminal(s, ["issues", "count", "--group-by", "colour"]);
    expect(await bad.exited).toBe(2);
    expect(bad.plain()).toContain("colour");
  });
});
