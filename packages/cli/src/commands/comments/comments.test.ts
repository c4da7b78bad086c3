import { createTracker } from "@tracker/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";

// `tracker comments`: the built binary against a real server.
const s = useSession();

// An issue closed with a comment, as 'issues close --comment' leaves it.
beforeAll(async () => {
  const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
  await sdk.issues.create({ team: "ENG", title: "Login fails" });
  await sdk.comments.create("ENG-1", { body: "Fixed in #42" });
});
const _tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "100" };

describe("tracker comments add, list, edit and delete", () => {
  it("comments: add (also from stdin), list, edit the last, delete", async () => {
    expect((await s.run(["issues", "comment", "ENG-1", "--body", "Looks good"])).code).toBe(0);
    await s.run(["comments", "add", "ENG-1", "--body-file", "-"], { input: "From a pipe\n" });
    const listed = await s.run(["comments", "list", "ENG-1", "--json", "body"]);
    expect(json(listed)).toEqual([
      { body: "Fixed in #42" },
      { body: "Looks good" },
      { body: "From a pipe\n" },
    ]);
    expect((await s.run(["comments", "edit", "ENG-1", "last", "--body", "From a pipe, edited"])).code).toBe(
      0,
    );
    const tsv = await s.run(["comments", "list", "ENG-1"]);
    expect(rows(tsv).map((r) => r[3])).toEqual(["Fixed in #42", "Looks good", "From a pipe, edited"]);
    const refused = await s.run(["comments", "delete", "ENG-1", "last"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--yes is required");
    expect((await s.run(["comments", "delete", "ENG-1", "last", "--yes"])).stderr).toMatch(
      /^Deleted comment /,
    );
    expect(json<unknown[]>(await s.run(["comments", "list", "ENG-1", "--json"]))).toHaveLength(2);
    const empty = await s.run(["issues", "comment", "ENG-1"]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("--body is required");
  });
});
