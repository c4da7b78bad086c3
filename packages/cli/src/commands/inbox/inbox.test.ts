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
const tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "100" };

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
    expect((await s.run(["inbox", "--since", "1d", "--jq", ".[0].event.type"])).stdout).toBe(
      "comment_added\n",
    );
    const badSince = await s.run(["inbox", "--since", "yesterday-ish"]);
    expect(badSince.code).toBe(2);
  });

  it("marks unread ones on a terminal, lists only unread, marks all read, and follows mentions", async () => {
    const other = await s.server.addMember(s.token, "member", "grace@example.com");
    const asOther = { env: { TRACKER_API_KEY: other.token } };
    await s.run(["issues", "create", "--team", "ENG", "--title", "Grace's own"], asOther); // ENG-2
    // Grace hears nothing of her own change; she hears of a mention, and of changes once she follows.
    await s.run(["issues", "comment", "ENG-1", "--body", "@grace can you check?"]);
    await s.run(["issues", "subscribe", "ENG-1"], asOther);
    await s.run(["issues", "edit", "ENG-1", "--priority", "urgent"]);
    const theirs = await s.run(
      ["inbox", "--json", "reason,event", "--jq", '.[] | .reason + " " + .event.type'],
      asOther,
    );
    expect(theirs.stdout).toBe("subscribed issue_updated\nmentioned comment_added\n");

    const table = await s.run(["inbox"], { env: { ...tty, TRACKER_API_KEY: other.token } });
    expect(table.stdout).toMatch(/^WHEN\s+ISSUE\s+WHO\s+WHAT\s+TITLE\s+WHY\s+READ$/m);
    expect(table.stdout).toMatch(
      /^• just now\s+ENG-1\s+Ada Lovelace\s+changed priority .*subscribed\s+unread$/m,
    );

    const cleared = await s.run(["inbox", "--read-all", "--unread"], {
      env: { ...tty, TRACKER_API_KEY: other.token },
    });
    expect(cleared.stdout + cleared.stderr).toContain("Nothing unread.");
    await s.run(["issues", "unsubscribe", "ENG-1"], asOther);
    await s.run(["issues", "edit", "ENG-1", "--priority", "low"]);
    expect((await s.run(["inbox", "--unread", "--jq", "length"], asOther)).stdout).toBe("0\n");
  });
});
