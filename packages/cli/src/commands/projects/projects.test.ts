import { describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker projects`: the built binary against a real server.
const s = useSession();
const tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "120" };

describe("tracker projects create, list, view, edit and move (real server, real binary)", () => {
  it("creates, lists, views, edits and moves projects", async () => {
    const created = await s.run(
      [
        "projects",
        "create",
        "--name",
        "Launch",
        "--team",
        "ENG",
        "--lead",
        "me",
        "--target",
        "2099-12-31",
        "--description-file",
        "-",
      ],
      {
        input: "Ship it.",
      },
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    await s.run(["issues", "create", "-t", "ENG", "--title", "Part one", "--project", "Launch"]);
    await s.run(["issues", "create", "-t", "ENG", "--title", "Part two", "--project", "Launch"]);
    await s.run(["issues", "close", "ENG-1"]);

    const tsv = await s.run(["projects", "list"]);
    expect(rows(tsv)).toEqual([["Launch", "backlog", "on_track", "50", s.user.email, "2099-12-31", "ENG"]]);
    const table = await s.run(["projects", "list"], { env: tty });
    expect(table.stdout).toMatch(/^NAME\s+STATUS\s+HEALTH\s+PROGRESS\s+LEAD\s+TARGET\s+TEAMS\n/);
    expect(table.stdout).toContain("▰▰▰▰▰▱▱▱▱▱ 50% (1/2)");
    expect(json(await s.run(["projects", "list", "--status", "backlog", "--json", "name,progress"]))).toEqual(
      [{ name: "Launch", progress: { done: 1, total: 2, percent: 50, excludedProjects: 0 } }],
    );
    expect((await s.run(["projects", "list", "--special", "led_by_me", "--jq", ".[].name"])).stdout).toBe(
      "Launch\n",
    );

    const view = await s.run(["projects", "view", "launch"]);
    expect(view.stdout).toContain("name:\tLaunch\n");
    expect(view.stdout).toContain("progress:\t50\n");
    expect(view.stdout).toContain("--\nShip it.\n");

    expect(
      (await s.run(["projects", "edit", "Launch", "--status", "started", "--name", "Launch v2"])).code,
    ).toBe(0);
    const members = await s.run(["projects", "members", "Launch v2", "--add", "me"]);
    expect(rows(members)).toEqual([["Ada Lovelace", s.user.email]]);
    expect((await s.run(["projects", "members", "Launch v2", "--remove", s.user.email])).stdout).toBe("");
    const viewed = json<{ status: string; members: unknown[] }>(
      await s.run(["projects", "view", "Launch v2", "--json"]),
    );
    expect(viewed).toMatchObject({ status: "started", members: [] });

    await s.run(["teams", "create", "--name", "Web", "--key", "WEB"]);
    const moved = await s.run(["projects", "move", "Launch v2", "--team", "WEB"]);
    expect(moved.code).toBe(0);
    expect(moved.stdout).toBe("ENG-1\tWEB-1\nENG-2\tWEB-2\n");

    const noName = await s.run(["projects", "create", "--team", "ENG"]);
    expect(noName).toMatchObject({
      code: 2,
      stderr: "--name is required\nRun 'tracker projects create --help' for usage.\n",
    });
    const taken = await s.run(["projects", "create", "--name", "launch v2", "--team", "ENG"]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/^conflict: /);
  });
});

describe("tracker projects list", () => {
  it("prints the lead's email when piped, as the README promises, and the name on a terminal", async () => {
    const created = await s.run([
      "projects",
      "create",
      "--name",
      "Leadership",
      "--team",
      "ENG",
      "--lead",
      "me",
    ]);
    expect(created.code).toBe(0);
    const piped = await s.run(["projects", "list"]);
    const row = rows(piped).find((r) => r[0] === "Leadership");
    expect(row?.[4]).toBe(s.user.email);
    const table = terminal(s, ["projects", "list"], { COLUMNS: "160" });
    expect(await table.exited).toBe(0);
    expect(table.plain()).toMatch(/Leadership .*Ada Lovelace/);
  });
});
