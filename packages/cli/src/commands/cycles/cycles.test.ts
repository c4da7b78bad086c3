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
    expect(first.stderr).toMatch(/^Started cycle 1 of ENG \(.*\), the team's first cycle\n$/);
    const made: string[] = [];
    for (const title of ["Carry me", "Carry me too", "Done already"])
      made.push(
        (
          await s.run(["issues", "create", "-t", "ENG", "--title", title, "--cycle", "current"])
        ).stdout.trim(),
      );
    expect((await s.run(["issues", "close", made[2]!])).code).toBe(0);
    const current = await s.run(["cycles", "current", "--team", "ENG"]);
    expect(rows(current)[0]!.slice(0, 2)).toEqual(["1", "Sprint 1"]);
    expect((await s.run(["cycles", "edit", "current", "--team", "ENG", "--name", "First"])).stdout).toBe(
      "1\n",
    );

    // Cycle 1 is running: the next one starts now, cycle 1 ends now, and its two unfinished issues move.
    const second = await s.run(["cycles", "create", "--team", "ENG"]);
    expect(second.stderr).toMatch(
      /^Ended cycle 1, started cycle 2 of ENG \(.*\), 2 unfinished issues moved from cycle 1\n$/,
    );
    expect(second.stdout).toBe("2\n");
    expect(
      (await s.run(["issues", "list", "-t", "ENG", "--cycle", "2", "--jq", "[.[].title] | sort"])).stdout,
    ).toBe('["Carry me","Carry me too"]\n');
    expect(
      (
        await s.run([
          "issues",
          "list",
          "-t",
          "ENG",
          "--cycle",
          "1",
          "--state-type",
          "completed",
          "--jq",
          ".[].title",
        ])
      ).stdout,
    ).toBe("Done already\n");
    const [one, two] = json<{ number: number; startsAt: string; endsAt: string }[]>(
      await s.run([
        "cycles",
        "list",
        "-t",
        "ENG",
        "--json",
        "number,startsAt,endsAt",
        "--jq",
        "sort_by(.number)",
      ]),
    );
    expect(one!.endsAt).toBe(two!.startsAt);
    expect((await s.run(["cycles", "current", "-t", "ENG", "--jq", ".number"])).stdout).toBe("2\n");

    // Planned ahead without touching the running cycle: a start at its end, no rollover.
    const third = await s.run([
      "cycles",
      "create",
      "--team",
      "ENG",
      "--starts",
      two!.endsAt,
      "--no-rollover",
    ]);
    expect(third.stderr).toMatch(/^Created cycle 3 of ENG \(.*\), cycle 2 keeps its unfinished issues\n$/);
    expect((await s.run(["issues", "list", "-t", "ENG", "--cycle", "2", "--jq", "length"])).stdout).toBe(
      "2\n",
    );
    expect((await s.run(["cycles", "list", "-t", "ENG", "--jq", "[.[].number]"])).stdout).toBe("[3,2,1]\n");
    expect((await s.run(["cycles", "delete", "1", "--team", "ENG", "--yes"])).stderr).toBe(
      "Deleted cycle 1\n",
    );
    const noTeam = await s.run(["cycles", "edit", "3", "--name", "x"]);
    expect(noTeam.code).toBe(2);
    expect(noTeam.stderr).toContain('--team is required to name a cycle by number or "current"');
  });
});
