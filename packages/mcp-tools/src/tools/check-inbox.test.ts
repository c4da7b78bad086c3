import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("check_inbox", () => {
  it("lists others' changes to my issues and mentions, unread first marked, and marks them all read", async () => {
    const bob = ws.as(ws.bob.token);
    const me = (await ws.sdk.users.list()).find((u) => u.isMe)!;
    const mine = await ws.sdk.issues.create({ team: "ENG", title: "Mine to watch" });
    await bob.issues.update(mine.identifier, { priority: 1 });
    await bob.comments.create(mine.identifier, { body: `@${me.email.split("@")[0]} please look` });

    const res = await call<{ notifications: { reason: string; unread: boolean }[]; unreadCount: number }>(
      "check_inbox",
      { unread: true, markRead: true },
    );
    expect(res.isError).toBe(false);
    expect(res.data.notifications.slice(0, 2).map((n) => [n.reason, n.unread])).toEqual([
      ["mentioned", true],
      ["created", true],
    ]);
    expect(res.text).toMatch(new RegExp(`^\\* .* ${mine.identifier} .* commented: .* \\(mentioned\\)`));
    expect(res.text).toMatch(/0 unread \(all marked read\)$/);
    expect((await ws.sdk.inbox.list({ unread: "true" })).unreadCount).toBe(0);
  });
});
