import { describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";

// `tracker cycles`: the built binary against a real server.
const s = useSession();
const _tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "100" };

describe("tracker cycles create, current, edit and delete", () => {
  it("starts cycles with rollover, shows the current one, edits and deletes", async () => {
    const off = await s.run(["cycles", "create", "--team", "ENG"]);
    expect(off.code).toBe(1);
    expect(off.stderr).toMatch(/^conflict: /);
    await s.run(["teams", "edit", "ENG", "--cycles"]);
    const first = await s.run(["cycles", "create", "--team", "ENG", "--name", "Sprint 1"]);
    expect(first).toMatchObject({ code: 0, stdout: "1\n" });
    expect(first.stderr).toMatch(/^Started cycle 1 of ENG \(.*\); 0 unfinished issues rolled over\n$/);
    await s.run(["issues", "create", "-t", "ENG", "--title", "Carry me", "--cycle", "current"]);
    const current = await s.run(["cycles", "current", "--team", "ENG"]);
    expect(rows(current)[0]!.slice(0, 2)).toEqual(["1", "Sprint 1"]);
    expect((await s.run(["cycles", "edit", "current", "--team", "ENG", "--name", "First"])).stdout).toBe(
      "1\n",
    );

    const ends = json<{ endsAt: string }>(
      await s.run(["cycles", "current", "-t", "ENG", "--json", "endsAt"]),
    ).endsAt;
    // Cycle 1 is still running: the next one is created ahead, and cycle 1 keeps its unfinished issue.
    const second = await s.run(["cycles", "create", "--team", "ENG"]);
    expect(second.stderr).toBe(
      `Created cycle 2 of ENG (${ends.slice(0, 10)} to ${second.stderr.split(" to ")[1]!.slice(0, 10)}); 0 unfinished issues rolled over\n`,
    );
    expect((await s.run(["issues", "list", "-t", "ENG", "--cycle", "1", "--jq", ".[].title"])).stdout).toBe(
      "Carry me\n",
    );
    expect(json(await s.run(["cycles", "list", "-t", "ENG", "--json", "number,startsAt"]))).toContainEqual({
      number: 2,
      startsAt: ends,
    });
    expect((await s.run(["cycles", "list", "-t", "ENG", "--jq", "[.[].number]"])).stdout).toBe("[2,1]\n");
    expect((await s.run(["cycles", "delete", "1", "--team", "ENG", "--yes"])).stderr).toBe(
      "Deleted cycle 1\n",
    );
    const noTeam = await s.run(["cycles", "edit", "3", "--name", "x"]);
    expect(noTeam.code).toBe(2);
    expect(noTeam.stderr).toContain('--team is required to name a cycle by number or "current"');
  });
});
