import { createTracker } from "@tracker/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { rows, useSession } from "../../test/binary.js";

// `tracker inbox`: the built binary against a real server.
const s = useSession();

// An issue of the caller's, for others to act on.
beforeAll(async () => {
  await createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" }).issues.create({
    team: "ENG",
    title: "Login fails",
    assignee: "me",
  });
});
const _tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "100" };

describe("tracker inbox", () => {
  it("shows what others did on your issues in the inbox", async () => {
    const other = await s.server.addMember(s.token, "member");
    await s.run(["issues", "comment", "ENG-1", "--body", "I can reproduce it"], {
      env: { TRACKER_API_KEY: other.token },
    });
    const inbox = await s.run(["inbox"]);
    expect(rows(inbox).map((r) => r.slice(1, 4))).toContainEqual([
      "ENG-1",
      other.email.split("@")[0],
      "commented: I can reproduce it",
    ]);
    expect((await s.run(["inbox", "--since", "1d", "--jq", ".[0].type"])).stdout).toBe("comment_added\n");
    const badSince = await s.run(["inbox", "--since", "yesterday-ish"]);
    expect(badSince.code).toBe(2);
  });
});
