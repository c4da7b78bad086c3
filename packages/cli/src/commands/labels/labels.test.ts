import { describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";

// `tracker labels`: the built binary against a real server.
const s = useSession();
const tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "100" };

describe("tracker labels create, list, rename, merge and delete", () => {
  it("creates, lists with counts, renames, merges and deletes labels", async () => {
    await s.run(["issues", "create", "-t", "ENG", "--title", "One", "-l", "defect"]);
    await s.run(["issues", "create", "-t", "ENG", "--title", "Two", "-l", "bug,defect"]);
    expect(
      (await s.run(["labels", "create", "wontfix", "--color", "#123456", "--description", "Not doing it"]))
        .code,
    ).toBe(0);
    expect(rows(await s.run(["labels", "list"]))).toEqual([
      ["bug", "#bec2c8", "1", "1", ""],
      ["defect", "#bec2c8", "2", "2", ""],
      ["wontfix", "#123456", "0", "0", "Not doing it"],
    ]);
    const table = await s.run(["labels", "list"], { env: tty });
    expect(table.stdout.split("\n")[0]).toMatch(/^NAME\s+COLOR\s+ISSUES\s+OPEN\s+DESCRIPTION$/);
    expect((await s.run(["labels", "rename", "defect", "flaw"])).stderr).toBe("Renamed defect to flaw\n");
    const merged = await s.run(["labels", "merge", "flaw", "--into", "bug"]);
    expect(merged.stderr).toBe("Merged flaw into bug: 1 issue moved, 1 already had both\n");
    expect((await s.run(["labels", "delete", "wontfix", "--yes"])).stderr).toBe("Deleted label wontfix\n");
    expect((await s.run(["labels", "list", "--jq", "[.[].name]"])).stdout).toBe('["bug"]\n');
    const member = await s.server.addMember(s.token, "member");
    const uncounted = await s.run(["labels", "list", "--json"], { env: { TRACKER_API_KEY: member.token } });
    expect(json<{ name: string; issueCount?: number }[]>(uncounted)).toEqual([
      expect.objectContaining({ name: "bug" }),
    ]);
    expect(json<{ issueCount?: number }[]>(uncounted)[0]!.issueCount).toBeUndefined();
  });
});
