import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("manage_team_members", () => {
  it("adds members to a team and removes them, answering who is in it", async () => {
    const added = await call("manage_team_members", { team: "ops", add: ["bob@example.com", "me"] });
    expect(added.text).toMatch(/^Added to OPS: bob@example\.com, ada@example\.com\.\nOPS members: /);
    expect((await ws.sdk.teams.members("OPS")).map((m) => m.email).sort()).toEqual([
      "ada@example.com",
      "bob@example.com",
    ]);
    const removed = await call("manage_team_members", { team: "OPS", remove: ["bob@example.com"] });
    expect(removed.text).toBe(
      "Removed from OPS: bob@example.com.\nOPS members: Ada Lovelace <ada@example.com>.",
    );
  });

  it("cannot add someone who has not joined the workspace, and says why", async () => {
    await ws.sdk.invites.create({ email: "sam@acme.test" });
    const result = await call("manage_team_members", { team: "ENG", add: ["sam@acme.test"] });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /^Not done: sam@acme\.test: not a member of the workspace \(invited but not joined yet\?\)/,
    );
    const nothing = await call("manage_team_members", { team: "ENG" });
    expect(nothing.text).toBe("Give `add` or `remove`: emails, ids or `me`.");
  });
});
