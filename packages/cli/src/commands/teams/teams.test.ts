import { createTracker } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker teams view` for teams the caller is not in.
const s = useSession();

describe("tracker teams view", () => {
  it("says a missing team does not exist, and offers to join only a team that does", async () => {
    const missing = terminal(s, ["teams", "view", "XYZ"]);
    expect(await missing.exited).toBe(1);
    expect(missing.plain()).toContain("no team XYZ; your teams: ENG");
    expect(missing.plain()).not.toContain("join");
    const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
    await sdk.teams.create({ key: "OPS", name: "Operations" });
    await sdk.teams.removeMember("OPS", "me");
    const other = terminal(s, ["teams", "view", "OPS"]);
    expect(await other.exited).toBe(1);
    expect(other.plain()).toContain("you are not in team OPS; join it with 'tracker teams join OPS'");
    expect(await terminal(s, ["teams", "join", "OPS"]).exited).toBe(0);
    expect(await terminal(s, ["teams", "view", "OPS"]).exited).toBe(0);
  });
});
