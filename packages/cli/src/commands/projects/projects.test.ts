import { describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// Projects, initiatives, cycles and status updates: the built binary against a real server.
const s = useSession();
const tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "120" };

describe("tracker projects and initiatives (real server, real binary)", () => {
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

  it("creates, lists, views and edits initiatives", async () => {
    const created = await s.run([
      "initiatives",
      "create",
      "--name",
      "Growth",
      "--status",
      "active",
      "--lead",
      "me",
    ]);
    expect(created.code).toBe(0);
    await s.run(["projects", "edit", "Launch v2", "--initiative", "Growth"]);
    expect(rows(await s.run(["initiatives", "list"]))).toEqual([
      ["Growth", "active", "on_track", "50", "1", s.user.email, ""],
    ]);
    const view = await s.run(["initiatives", "view", "growth"], { env: tty });
    expect(view.stdout).toContain("Growth\n");
    expect(view.stdout).toMatch(/Projects\nNAME\s+STATUS\s+PROGRESS\nLaunch v2\s+started/);
    expect(
      (await s.run(["initiatives", "edit", "Growth", "--target", "2099-06-30", "--json", "targetDate"]))
        .stdout,
    ).toContain('"targetDate": "2099-06-30"');
    expect((await s.run(["initiatives", "list", "--jq", ".[0].projects[0].name"])).stdout).toBe(
      "Launch v2\n",
    );
    const badStatus = await s.run(["initiatives", "list", "--status", "started"]);
    expect(badStatus.code).toBe(2);
    expect(badStatus.stderr).toContain("expected one of: planned, active, completed, canceled");
    const move = await s.run(["initiatives", "move", "Growth", "--team", "X"]);
    expect(move).toMatchObject({
      code: 2,
      stderr: "--to-workspace is required\nRun 'tracker initiatives move --help' for usage.\n",
    });
  });

  it("moves an initiative with its projects and issues to another workspace", async () => {
    await s.run(["workspaces", "create", "--name", "Labs", "--slug", "labs"]);
    await s.run(["-w", "labs", "teams", "create", "--name", "Lab", "--key", "LAB"]);
    await s.run(["workspaces", "use", s.workspace.slug]);
    await s.run(["initiatives", "create", "--name", "Moonshot"]);
    await s.run(["projects", "create", "--name", "Rocket", "--team", "ENG", "--initiative", "Moonshot"]);
    await s.run(["issues", "create", "-t", "ENG", "--title", "Fuel", "--project", "Rocket"]);
    const moved = await s.run(["initiatives", "move", "Moonshot", "--to-workspace", "labs", "--team", "LAB"]);
    expect(moved).toMatchObject({ code: 0, stderr: "Moved Moonshot to labs: 1 projects, 1 issues\n" });
    expect((await s.run(["-w", "labs", "issues", "list", "--jq", ".[].title"])).stdout).toBe("Fuel\n");
    expect((await s.run(["initiatives", "view", "Moonshot", "--jq", ".status"])).stdout).toBe("canceled\n");
  });
});

describe("tracker cycles and updates (real server, real binary)", () => {
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
    const second = await s.run(["cycles", "create", "--team", "ENG", "--json"]);
    expect(json(second)).toMatchObject({ cycle: { number: 2, startsAt: ends }, rolledOver: 1 });
    expect((await s.run(["cycles", "list", "-t", "ENG", "--jq", "[.[].number]"])).stdout).toBe("[2,1]\n");
    expect((await s.run(["cycles", "delete", "1", "--team", "ENG", "--yes"])).stderr).toBe(
      "Deleted cycle 1\n",
    );
    const noTeam = await s.run(["cycles", "edit", "3", "--name", "x"]);
    expect(noTeam.code).toBe(2);
    expect(noTeam.stderr).toContain('--team is required to name a cycle by number or "current"');
  });

  it("posts status updates, lists them and drafts from candidates", async () => {
    const candidates = await s.run(["updates", "candidates", "--project", "Launch v2"]);
    expect(rows(candidates).map((r) => r.slice(0, 2))).toEqual([["WEB-1", "Part one"]]);
    const posted = await s.run(
      [
        "updates",
        "create",
        "--project",
        "Launch v2",
        "--title",
        "Week 1",
        "--body-file",
        "-",
        "--issue",
        "WEB-1",
      ],
      {
        input: "Part one is done.",
      },
    );
    expect(posted.code).toBe(0);
    const listed = await s.run([
      "updates",
      "list",
      "--project",
      "Launch v2",
      "--json",
      "title,content,issues",
    ]);
    expect(json(listed)).toEqual([
      { title: "Week 1", content: "Part one is done.", issues: [{ identifier: "WEB-1", title: "Part one" }] },
    ]);
    expect((await s.run(["updates", "candidates", "--project", "Launch v2"])).stdout).toBe("");
    const two = await s.run(["updates", "list", "--team", "ENG", "--project", "Launch v2"]);
    expect(two).toMatchObject({
      code: 2,
      stderr:
        "give exactly one of --team, --project, --initiative\nRun 'tracker updates list --help' for usage.\n",
    });
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
