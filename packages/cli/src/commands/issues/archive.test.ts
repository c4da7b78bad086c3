import { createTracker } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { rows, useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker issues archive` and `unarchive`: the built binary against a real server, at a terminal and piped.
const s = useSession();

describe("tracker issues archive", () => {
  it("hides an issue from the list, lists it with --archived, shows it archived and restores it", async () => {
    const api = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
    await api.issues.create({ team: "ENG", title: "Stays" }); // ENG-1
    await api.issues.create({ team: "ENG", title: "Old news" }); // ENG-2

    const archived = terminal(s, ["issues", "archive", "ENG-2"]);
    expect(await archived.exited).toBe(0);
    expect(archived.plain()).toContain("Archived ENG-2; restore it with: tracker issues unarchive ENG-2");

    const listed = await s.run(["issues", "list"]);
    expect(rows(listed).map((r) => r[0])).toEqual(["ENG-1"]);
    const only = await s.run(["issues", "list", "--archived"]);
    expect(rows(only).map((r) => r[0])).toEqual(["ENG-2"]);

    const today = new Date().toISOString().slice(0, 10);
    const view = terminal(s, ["issues", "view", "ENG-2"]);
    expect(await view.exited).toBe(0);
    expect(view.plain()).toContain(`Archived ${today} (tracker issues unarchive ENG-2)`);
    const piped = await s.run(["issues", "view", "ENG-2"]);
    expect(piped.stdout).toMatch(new RegExp(`^archived:\\t${today}T`, "m"));

    // Again: nothing changes, and it says the same.
    expect((await s.run(["issues", "archive", "ENG-2", "--json"])).stdout).toContain('"archivedAt": "');

    const restored = terminal(s, ["issues", "unarchive", "ENG-2"]);
    expect(await restored.exited).toBe(0);
    expect(restored.plain()).toContain("Restored ENG-2");
    expect(
      rows(await s.run(["issues", "list"]))
        .map((r) => r[0])
        .sort(),
    ).toEqual(["ENG-1", "ENG-2"]);
    expect((await s.run(["issues", "list", "--archived"])).stdout).toBe("");

    const history = await s.run(["issues", "view", "ENG-2", "--history"]);
    expect(rows(history).map((r) => r[2])).toEqual([
      "created it",
      "archived it",
      "restored it from the archive",
    ]);

    // A read-only key may not archive.
    const reader = await api.apiKeys.create({ name: "reader", access: "read" });
    const refused = await s.run(["issues", "archive", "ENG-1"], { env: { TRACKER_API_KEY: reader.token } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/insufficient_access/);
    expect((await api.issues.get("ENG-1")).archivedAt).toBeNull();
  });
});
