import { describe, expect, it } from "vitest";
import { rows, useSession } from "../../test/binary.js";

// `tracker issues view --history`: the built binary against a real server.
const s = useSession();
const tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "120" };

describe("tracker issues view --history", () => {
  it("prints every change with who made it, oldest first, as TSV, a table and JSON", async () => {
    await s.run(["issues", "create", "--team", "ENG", "--title", "Crash on save"]);
    await s.run(["issues", "create", "--team", "ENG", "--title", "Flaky CI"]);
    const other = await s.server.addMember(s.token, "member");
    await s.run(["issues", "edit", "ENG-1", "--state", "Todo", "--priority", "high"], {
      env: { TRACKER_API_KEY: other.token },
    });
    await s.run(["issues", "relate", "ENG-1", "ENG-2", "--type", "blocks"]);

    const piped = await s.run(["issues", "view", "ENG-1", "--history"]);
    expect(piped.code).toBe(0);
    const who = other.email.split("@")[0]!;
    expect(rows(piped).map((r) => r.slice(1))).toEqual([
      [s.user.name, "created it"],
      [expect.stringContaining(who), "moved it from Backlog to Todo"],
      [expect.stringContaining(who), "changed priority"],
      [s.user.name, "marked it blocks ENG-2"],
    ]);

    const table = await s.run(["issues", "view", "ENG-1", "--history"], { env: tty });
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^WHEN\s+WHO\s+WHAT$/);
    expect(lines[1]).toMatch(/^just now\s+Ada Lovelace\s+created it$/);

    const types = await s.run(["issues", "view", "ENG-2", "--history", "--jq", ".[].type"]);
    expect(types.stdout).toBe("issue_created\nrelation_added\n");
    const missing = await s.run(["issues", "view", "ENG-99", "--history"]);
    expect(missing.code).toBe(1);
  });
});
