import { createTracker } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { rows, useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker teams view` for teams the caller is not in.
const s = useSession();
const _tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "100" };

describe("tracker teams create, view, edit, join, members, workflows and delete", () => {
  it("creates, views, edits, joins, lists members and workflow rules, and deletes teams", async () => {
    expect(
      (await s.run(["teams", "create", "--name", "Design", "--key", "DES", "--estimates", "tshirt"])).stdout,
    ).toBe("DES\n");
    expect(rows(await s.run(["teams", "list"]))).toEqual([
      ["DES", "Design", "Backlog,Todo,In Progress,In Review,Done,Canceled"],
      ["ENG", "Engineering", "Backlog,Todo,In Progress,In Review,Done,Canceled"],
    ]);
    const view = await s.run(["teams", "view", "DES"]);
    expect(view.stdout).toContain("estimates:\ttshirt\n");
    expect(view.stdout).toContain(`members:\t${s.user.email}\n`);
    expect((await s.run(["teams", "edit", "DES", "--cycles", "--cycle-weeks", "1"])).code).toBe(0);
    expect((await s.run(["teams", "view", "des", "--jq", ".cycleLengthWeeks"])).stdout).toBe("1\n");

    const member = await s.server.addMember(s.token, "member");
    expect(rows(await s.run(["teams", "members", "DES", "--add", member.email])).map((r) => r[1])).toEqual(
      expect.arrayContaining([member.email, s.user.email]),
    );
    expect(rows(await s.run(["teams", "members", "DES", "--remove", member.email])).map((r) => r[1])).toEqual(
      [s.user.email],
    );
    const joined = await s.run(["teams", "join", "DES"], { env: { TRACKER_API_KEY: member.token } });
    expect(joined).toMatchObject({ code: 0, stderr: "Joined DES\n" });
    expect(rows(await s.run(["teams", "list", "--all"], { env: { TRACKER_API_KEY: member.token } }))).toEqual(
      [
        ["DES", "Design", "joined"],
        ["ENG", "Engineering", ""],
      ],
    );

    const rule = await s.run(["teams", "workflows", "DES", "--set", "pr_merged=done"]);
    expect(rows(rule).map((r) => r.slice(0, 3))).toEqual([["pr_merged", "Done", ""]]);
    const badRule = await s.run(["teams", "workflows", "DES", "--set", "pr_merged=Shipped"]);
    expect(badRule).toMatchObject({ code: 1 });
    expect(badRule.stderr).toContain('no state "Shipped" in DES; states: Backlog, Todo');

    const guarded = await s.run(["teams", "delete", "DES"]);
    expect(guarded.code).toBe(2);
    expect(guarded.stderr).toContain(
      "--yes is required to delete team DES and every issue in it without a terminal",
    );
    const denied = await s.run(["teams", "delete", "DES", "--yes"], {
      env: { TRACKER_API_KEY: member.token },
    });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/^admin_required: .*\nAsk an admin of the workspace to do it.\n$/);
    expect((await s.run(["teams", "delete", "DES", "--yes"])).stderr).toBe("Deleted team DES\n");
  });
});

describe("tracker teams view", () => {
  it("says a missing team does not exist, and shows one not joined with the way to join it", async () => {
    const missing = terminal(s, ["teams", "view", "XYZ"]);
    expect(await missing.exited).toBe(1);
    expect(missing.plain()).toContain("no team XYZ; your teams: ENG");
    expect(missing.plain()).not.toContain("join");
    const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
    await sdk.teams.create({ key: "OPS", name: "Operations" });
    await sdk.teams.removeMember("OPS", "me");
    // A team one has not joined is read (GET /teams/{key}) and shown, with the way to join it.
    const other = terminal(s, ["teams", "view", "OPS"]);
    expect(await other.exited).toBe(0);
    expect(other.plain()).toContain("You are not in team OPS; join it with 'tracker teams join OPS'.");
    expect(other.plain()).toContain("Operations");
    expect(other.plain()).toMatch(/joined:?\s+no/);
    expect(await terminal(s, ["teams", "join", "OPS"]).exited).toBe(0);
    const joined = terminal(s, ["teams", "view", "OPS"]);
    expect(await joined.exited).toBe(0);
    expect(joined.plain()).not.toContain("You are not in team OPS");
    expect(joined.plain()).toMatch(/joined:?\s+yes/);
  });
});

describe("tracker teams states", () => {
  it("lists, adds, renames, recolours, moves and deletes a team's workflow states", async () => {
    const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
    await sdk.teams.create({ key: "WRK", name: "Workflow" });
    const names = async () => rows(await s.run(["teams", "states", "WRK"])).map((r) => r.slice(0, 3));
    expect(await names()).toEqual([
      ["1", "Backlog", "backlog"],
      ["2", "Todo", "unstarted"],
      ["3", "In Progress", "started"],
      ["4", "In Review", "started"],
      ["5", "Done", "completed"],
      ["6", "Canceled", "canceled"],
    ]);

    const added = await s.run(
      ["teams", "states", "wrk", "--add", "QA", "--type", "started", "--color", "#f2994a"],
      {
        env: _tty,
      },
    );
    expect(added.code).toBe(0);
    expect(added.stderr).toBe("Added QA (started) to WRK at 5\n");
    expect(rows(await s.run(["teams", "states", "WRK"]))[4]!.slice(0, 4)).toEqual([
      "5",
      "QA",
      "started",
      "#f2994a",
    ]);

    const renamed = await s.run(["teams", "states", "WRK", "--rename", "qa=Testing"]);
    expect(renamed.code).toBe(0);
    expect(rows(renamed)[4]!.slice(1, 2)).toEqual(["Testing"]);
    const recoloured = await s.run(["teams", "states", "WRK", "--color", "Testing=#000000"]);
    expect(rows(recoloured)[4]!.slice(1, 4)).toEqual(["Testing", "started", "#000000"]);
    const moved = await s.run(["teams", "states", "WRK", "--move", "Testing", "--to-position", "1"]);
    expect(rows(moved).map((r) => r[1])).toEqual([
      "Testing",
      "Backlog",
      "Todo",
      "In Progress",
      "In Review",
      "Done",
      "Canceled",
    ]);

    await sdk.issues.create({ team: "WRK", title: "Being tested", state: "Testing" });
    const needsTarget = await s.run(["teams", "states", "WRK", "--delete", "Testing"]);
    expect(needsTarget.code).toBe(1);
    expect(needsTarget.stderr).toContain(
      'invalid_request: "Testing" holds 1 issue: say which state they move to',
    );
    const deleted = await s.run(
      ["teams", "states", "WRK", "--delete", "Testing", "--move-to", "in progress"],
      {
        env: _tty,
      },
    );
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toBe("Deleted Testing; 1 issue moved to In Progress\n");
    expect((await sdk.issues.list({ team: "WRK" })).items.map((i) => i.state.name)).toEqual(["In Progress"]);

    const last = await s.run(["teams", "states", "WRK", "--delete", "Done"]);
    expect(last.code).toBe(1);
    expect(last.stderr).toContain('last_state: "Done" is the last completed state of WRK');
    const taken = await s.run(["teams", "states", "WRK", "--add", "todo", "--type", "unstarted"]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("state_name_taken: ");
    const unknown = await s.run(["teams", "states", "WRK", "--rename", "Nope=Yes"]);
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.stderr).toContain('no state "Nope" in WRK; states: Backlog, Todo');

    expect((await s.run(["teams", "states", "WRK", "--add", "QA"])).code).toBe(2);
    expect((await s.run(["teams", "states", "WRK", "--add", "QA", "--type", "doing"])).code).toBe(2);
    expect((await s.run(["teams", "states", "WRK", "--move", "Todo"])).code).toBe(2);
    expect((await s.run(["teams", "states", "WRK", "--rename", "Todo"])).code).toBe(2);
    expect((await s.run(["teams", "states", "WRK", "--rename", "Todo=Ready", "--move", "Todo"])).code).toBe(
      2,
    );

    const member = await s.server.addMember(s.token, "member");
    const outsider = await s.run(["teams", "states", "WRK", "--add", "Mine", "--type", "started"], {
      env: { TRACKER_API_KEY: member.token },
    });
    expect(outsider.code).toBe(1);
    expect(outsider.stderr).toMatch(/^forbidden: /);
    expect(JSON.parse((await s.run(["teams", "states", "WRK", "--json"])).stdout)).toHaveLength(6);
  });
});
