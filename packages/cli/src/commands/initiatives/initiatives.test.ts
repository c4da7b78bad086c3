import { createTracker } from "@tracker/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { rows, useSession } from "../../test/binary.js";

// `tracker initiatives`: the built binary against a real server.
const s = useSession();
const tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "100" };

// A started project with two issues, one of them done, for the initiative to hold.
beforeAll(async () => {
  const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
  await sdk.projects.create({ name: "Launch v2", teams: ["ENG"], status: "started" });
  await sdk.issues.create({ team: "ENG", title: "Part one", project: "Launch v2", state: "Done" });
  await sdk.issues.create({ team: "ENG", title: "Part two", project: "Launch v2" });
});

describe("tracker initiatives create, list, view and edit", () => {
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
});

describe("tracker initiatives move", () => {
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
