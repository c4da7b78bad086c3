import { describe, expect, it } from "vitest";
import { Stream } from "../../test/event-stream.js";
import { type ApiClient, useTestServer } from "../../test/harness.js";
import { addTeam } from "../issues/issue-fixtures.js";

const srv = useTestServer();

async function setup() {
  const { apiKey, workspace, user } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const bob = await srv.addMember(apiKey.token, "member", "bob@example.com");
  const cat = await srv.addMember(apiKey.token, "member", "cat.lee@example.com");
  return {
    token: apiKey.token,
    ws: workspace,
    me: { api: srv.client(apiKey.token), userId: user.id, token: apiKey.token },
    bob: { ...bob, api: srv.client(bob.token) },
    cat: { ...cat, api: srv.client(cat.token) },
  };
}

const inbox = async (api: ApiClient, unread = false) =>
  (await api.GET("/my/notifications", { params: { query: unread ? { unread: "true" } : {} } })).data!;
const summary = async (api: ApiClient) =>
  (await inbox(api)).notifications.map((n) => [n.reason, n.event.type, n.event.issue.identifier]);

describe("notifications", () => {
  it("tell the creator, the assignee and subscribers about others' changes, never their own", async () => {
    const { me, bob, cat } = await setup();
    const issue = (
      await me.api.POST("/issues", { body: { team: "ENG", title: "Login", assignee: bob.userId } })
    ).data!.issue;
    const path = { params: { path: { identifier: issue.identifier } } };
    // Bob was assigned by someone else: told. I made it: not told of my own change.
    expect(await summary(bob.api)).toEqual([["assigned", "issue_created", issue.identifier]]);
    expect(await summary(me.api)).toEqual([]);

    await bob.api.PATCH("/issues/{identifier}", { ...path, body: { state: "In Progress" } });
    expect(await summary(me.api)).toEqual([["created", "state_changed", issue.identifier]]);
    expect((await inbox(bob.api)).notifications).toHaveLength(1);

    // Each reads whether they follow it: the creator and the assignee do, Cat not yet.
    const follows = async (api: ApiClient) => (await api.GET("/issues/{identifier}/subscription", path)).data;
    expect(await follows(me.api)).toEqual({ subscribed: true });
    expect(await follows(bob.api)).toEqual({ subscribed: true });
    expect(await follows(cat.api)).toEqual({ subscribed: false });

    // Cat subscribes, then hears of a change by me; unsubscribing stops it.
    expect((await cat.api.PUT("/issues/{identifier}/subscription", path)).data).toEqual({ subscribed: true });
    expect(await follows(cat.api)).toEqual({ subscribed: true });
    await me.api.PATCH("/issues/{identifier}", { ...path, body: { priority: 1 } });
    expect(await summary(cat.api)).toEqual([["subscribed", "issue_updated", issue.identifier]]);
    expect(await summary(bob.api)).toEqual([
      ["assigned", "issue_updated", issue.identifier],
      ["assigned", "issue_created", issue.identifier],
    ]);
    await cat.api.DELETE("/issues/{identifier}/subscription", path);
    expect(await follows(cat.api)).toEqual({ subscribed: false });
    await bob.api.PATCH("/issues/{identifier}", { ...path, body: { title: "Login, again" } });
    expect(await inbox(cat.api)).toMatchObject({ notifications: [expect.anything()], unreadCount: 1 });

    // Bob unsubscribes from his own issue: changes no longer reach him, but a mention does.
    await bob.api.DELETE("/issues/{identifier}/subscription", path);
    await me.api.PATCH("/issues/{identifier}", { ...path, body: { priority: 2 } });
    expect((await inbox(bob.api)).notifications).toHaveLength(2);
    await me.api.POST("/issues/{identifier}/comments", {
      ...path,
      body: { body: "@bob and @cat.lee, look" },
    });
    expect((await summary(bob.api))[0]).toEqual(["mentioned", "comment_added", issue.identifier]);
    expect((await summary(cat.api))[0]).toEqual(["mentioned", "comment_added", issue.identifier]);
    // "@bobby" or an email address is not a mention of bob.
    await me.api.POST("/issues/{identifier}/comments", {
      ...path,
      body: { body: "ask @bobby or mail x@bob.io" },
    });
    expect((await inbox(bob.api)).notifications).toHaveLength(3);
  });

  it("are read and unread per person, and all can be marked read at once", async () => {
    const { me, bob } = await setup();
    const a = (await bob.api.POST("/issues", { body: { team: "ENG", title: "A" } })).data!.issue;
    const b = (await bob.api.POST("/issues", { body: { team: "ENG", title: "B" } })).data!.issue;
    await me.api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: a.identifier } },
      body: { priority: 1 },
    });
    await me.api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: b.identifier } },
      body: { priority: 1 },
    });
    const all = await inbox(bob.api);
    expect(all.unreadCount).toBe(2);
    expect(all.notifications.every((n) => n.readAt === null)).toBe(true);

    const one = await bob.api.POST("/my/notifications/read", { body: { ids: [all.notifications[0]!.id] } });
    expect(one.data).toEqual({ unreadCount: 1 });
    expect((await inbox(bob.api, true)).notifications.map((n) => n.event.issue.identifier)).toEqual([
      a.identifier,
    ]);
    // Someone else's ids change nothing.
    expect(
      (await me.api.POST("/my/notifications/read", { body: { ids: [all.notifications[1]!.id] } })).data,
    ).toEqual({
      unreadCount: 0,
    });
    expect((await inbox(bob.api)).unreadCount).toBe(1);
    await bob.api.POST("/my/notifications/read", { body: { ids: [all.notifications[0]!.id], read: false } });
    expect((await inbox(bob.api)).unreadCount).toBe(2);
    expect((await bob.api.POST("/my/notifications/read", { body: {} })).data).toEqual({ unreadCount: 0 });
  });

  it("leave out guests who do not see the team, and a refused write notifies nobody", async () => {
    const { me, ws, token, bob } = await setup();
    const guest = await srv.addMember(token, "guest", "gus@example.com");
    await addTeam(srv, ws.id, "OPS", me.userId);
    const ops = (await bob.api.POST("/issues", { body: { team: "OPS", title: "Ops" } })).data!.issue;
    const path = { params: { path: { identifier: ops.identifier } } };
    await bob.api.POST("/issues/{identifier}/comments", { ...path, body: { body: "@gus have a look" } });
    expect((await inbox(srv.client(guest.token))).notifications).toEqual([]);
    const refused = await me.api.PATCH("/issues/{identifier}", { ...path, body: { state: "No such state" } });
    expect(refused.response.status).toBe(400);
    expect((await inbox(bob.api)).notifications).toEqual([]);
  });

  it("reach the recipient's event stream live, and no one else's", async () => {
    const { me, bob } = await setup();
    const issue = (await bob.api.POST("/issues", { body: { team: "ENG", title: "Streamed" } })).data!.issue;
    const bobs = new Stream(srv.url, bob.token);
    const admin = new Stream(srv.url, me.token);
    await Promise.all([bobs.opened(), admin.opened()]);
    try {
      await me.api.PATCH("/issues/{identifier}", {
        params: { path: { identifier: issue.identifier } },
        body: { priority: 1 },
      });
      await expect
        .poll(() => bobs.changeBodies().filter((e) => e.entity === "notification"))
        .toEqual([expect.objectContaining({ id: bob.userId, identifier: issue.identifier })]);
      await expect.poll(() => admin.changeBodies().some((e) => e.entity === "issue")).toBe(true);
      expect(admin.changeBodies().filter((e) => e.entity === "notification")).toEqual([]);
    } finally {
      bobs.close();
      admin.close();
    }
  });
});
