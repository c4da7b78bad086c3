import { createTracker } from "@tracker/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";

// `tracker updates`: the built binary against a real server.
const s = useSession();

// Project "Launch v2" of team WEB, one issue done since it started.
beforeAll(async () => {
  const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
  await sdk.teams.create({ name: "Web", key: "WEB" });
  await sdk.projects.create({ name: "Launch v2", teams: ["WEB"], status: "started" });
  await sdk.issues.create({ team: "WEB", title: "Part one", project: "Launch v2", state: "Done" });
  await sdk.issues.create({ team: "WEB", title: "Part two", project: "Launch v2" });
});
const _tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "100" };

describe("tracker updates create, list and candidates", () => {
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
