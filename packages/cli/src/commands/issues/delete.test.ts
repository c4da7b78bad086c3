import { createTracker } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker issues delete`: the built binary against a real server, at a terminal and piped.
const s = useSession();

describe("tracker issues delete", () => {
  it("asks at a terminal, needs --yes when piped, and refuses a member who did not create the issue", async () => {
    const api = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
    await api.issues.create({ team: "ENG", title: "Keep me" }); // ENG-1
    await api.issues.create({ team: "ENG", title: "Delete me" }); // ENG-2

    const no = terminal(s, ["issues", "delete", "ENG-2"]);
    await no.answer("Delete issue ENG-2 with its comments and history?", "n\r");
    expect(await no.exited).toBe(1);
    expect((await api.issues.get("ENG-2")).title).toBe("Delete me");

    const piped = await s.run(["issues", "delete", "ENG-2"]);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain("--yes is required");

    const other = await s.server.addMember(s.token, "member");
    const refused = await s.run(["issues", "delete", "ENG-1", "--yes"], {
      env: { TRACKER_API_KEY: other.token },
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/forbidden: Only the issue's creator or a workspace admin may delete it/);

    const yes = terminal(s, ["issues", "delete", "ENG-2"]);
    await yes.answer("Delete issue ENG-2 with its comments and history?", "y\r");
    expect(await yes.exited).toBe(0);
    expect(yes.plain()).toContain("Deleted ENG-2");
    const gone = await s.run(["issues", "view", "ENG-2"]);
    expect(gone.code).toBe(1);
    expect((await s.run(["issues", "delete", "ENG-1", "--yes", "--json"])).stdout).toContain(
      '"deleted": true',
    );
  });
});
