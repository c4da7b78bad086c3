import { describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";

// `tracker views`: the built binary against a real server.
const s = useSession();
const tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "100" };

describe("tracker views and view-defaults", () => {
  it("saves, edits and deletes views, and sets and removes view defaults", async () => {
    const created = await s.run([
      "views",
      "create",
      "--name",
      "Urgent",
      "--filter",
      "stateType=backlog,unstarted",
      "--sort",
      "-priority",
      "--favorite",
    ]);
    expect(created.code).toBe(0);
    const listed = await s.run(["views", "list"]);
    expect(rows(listed)[0]!.slice(0, 5)).toEqual([
      "Urgent",
      "issues",
      "",
      '{"stateType":["backlog","unstarted"]}',
      "-priority",
    ]);
    const table = await s.run(["views", "list"], { env: tty });
    expect(table.stdout).toContain("★ Urgent");
    expect(table.stdout).toContain("stateType=backlog,unstarted");
    expect((await s.run(["views", "edit", "urgent", "--name", "Open", "--unfavorite"])).code).toBe(0);
    expect(json(await s.run(["views", "list", "--json", "name,favorite"]))).toEqual([
      { name: "Open", favorite: false },
    ]);
    // Urgent bugs: issue 37's priority filter, a list, and an estimate bound, a number.
    const urgentBugs = await s.run([
      "views",
      "create",
      "--name",
      "Urgent bugs",
      "--filter",
      "priority=urgent",
      "--filter",
      "label=bug",
      "--filter",
      "estimateMin=2",
    ]);
    expect(urgentBugs.code).toBe(0);
    expect(json(await s.run(["views", "list", "--json", "name,filters"]))).toContainEqual({
      name: "Urgent bugs",
      filters: { priority: ["urgent"], label: ["bug"], estimateMin: 2 },
    });
    expect((await s.run(["views", "delete", "Urgent bugs", "--yes"])).code).toBe(0);
    const badPriority = await s.run(["views", "create", "--name", "Bad", "--filter", "priority=asap"]);
    expect(badPriority.code).toBe(1);
    expect(badPriority.stderr).toMatch(/^invalid_request: .*priority/s);
    const bad = await s.run(["views", "create", "--name", "Bad", "--filter", "colour=red"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^invalid_request: /);
    expect((await s.run(["views", "delete", "Open", "--yes"])).stderr).toBe('Deleted view "Open"\n');

    const set = await s.run([
      "view-defaults",
      "set",
      "issues:team:ENG",
      "--sort",
      "-updated",
      "--display",
      "board",
      "--hidden",
      "estimate,labels",
    ]);
    expect(set.stderr).toBe("Set the user defaults of issues:team:ENG\n");
    expect(rows(await s.run(["view-defaults", "list"]))).toEqual([
      ["issues:team:ENG", "user", "{}", "-updated", "board", "", "estimate,labels"],
    ]);
    expect((await s.run(["view-defaults", "delete", "issues:team:ENG"])).code).toBe(0);
    const again = await s.run(["view-defaults", "delete", "issues:team:ENG"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^not_found: /);
  });
});
