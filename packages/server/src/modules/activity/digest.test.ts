import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type ApiClient, useTestServer } from "../../test/harness.js";
import { addTeam, joinTeam } from "../issues/issue-fixtures.js";

const srv = useTestServer();

async function setup() {
  const { apiKey, workspace, user } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const bob = await srv.addMember(apiKey.token, "member");
  const cat = await srv.addMember(apiKey.token, "member");
  return {
    me: srv.client(apiKey.token),
    meId: user.id,
    adminToken: apiKey.token,
    ws: workspace,
    bob: { ...bob, api: srv.client(bob.token) },
    cat: { ...cat, api: srv.client(cat.token) },
  };
}

async function create(api: ApiClient, title: string, extra: { assignee?: string; team?: string } = {}) {
  const res = await api.POST("/issues", { body: { team: "ENG", title, priority: 0, ...extra } });
  if (!res.data) throw new Error(JSON.stringify(res.error));
  return res.data.issue;
}
const patch = (api: ApiClient, identifier: string, body: { title?: string; state?: string }) =>
  api.PATCH("/issues/{identifier}", { params: { path: { identifier } }, body });
const comment = (api: ApiClient, identifier: string, body: string) =>
  api.POST("/issues/{identifier}/comments", { params: { path: { identifier } }, body: { body } });

describe("getDigest", () => {
  it("lists what others did on issues I created, am assigned to or commented on, newest first", async () => {
    const { me, meId, bob, cat } = await setup();
    const mine = await create(me, "Mine");
    const assigned = await create(bob.api, "Assigned to me", { assignee: meId });
    const discussed = await create(bob.api, "Discussed");
    const unrelated = await create(bob.api, "Unrelated");

    await patch(me, mine.identifier, { title: "Mine, renamed by me" });
    await patch(bob.api, mine.identifier, { state: "Todo" });
    await patch(bob.api, unrelated.identifier, { title: "Still unrelated" });
    await comment(me, discussed.identifier, "I have a view");
    await comment(cat.api, discussed.identifier, "So do I");
    await patch(cat.api, assigned.identifier, { title: "Assigned, renamed" });

    const res = await me.GET("/my/digest");
    expect(res.response.status).toBe(200);
    const events = res.data!.events;
    expect(events.map((e) => [e.type, e.issue.identifier, e.actor?.id])).toEqual([
      ["issue_updated", assigned.identifier, cat.userId],
      ["comment_added", discussed.identifier, cat.userId],
      ["state_changed", mine.identifier, bob.userId],
      ["issue_created", discussed.identifier, bob.userId],
      ["issue_created", assigned.identifier, bob.userId],
    ]);
    expect(events[0]).toEqual({
      id: expect.any(String),
      type: "issue_updated",
      payload: { changes: { title: { from: "Assigned to me", to: "Assigned, renamed" } } },
      createdAt: expect.any(String),
      actor: { id: cat.userId, name: expect.any(String) },
      issue: { id: assigned.id, identifier: assigned.identifier, title: "Assigned, renamed" },
    });
    expect(events[1]!.payload).toEqual({ comment: { id: expect.any(String), body: "So do I" } });
    expect(events[2]!.payload).toMatchObject({
      from: { name: "Backlog" },
      to: { name: "Todo", type: "unstarted" },
    });

    // Bob's digest: others' actions on the issues he created; his own and "Mine" (not his) are left out.
    const bobs = (await bob.api.GET("/my/digest")).data!.events;
    expect(bobs.map((e) => [e.type, e.issue.identifier, e.actor?.id])).toEqual([
      ["issue_updated", assigned.identifier, cat.userId],
      ["comment_added", discussed.identifier, cat.userId],
      ["comment_added", discussed.identifier, meId],
    ]);
  });

  it("honours since and limit, and shows automation with a null actor", async () => {
    const { me, bob, ws } = await setup();
    const mine = await create(me, "Mine");
    await patch(bob.api, mine.identifier, { title: "One" });
    await patch(bob.api, mine.identifier, { title: "Two" });
    await srv.query(
      `insert into activity_events (id, workspace_id, issue_id, actor_id, type, payload, created_at)
       values ($1, $2, $3, null, 'state_changed', '{}', now() - interval '1 minute'),
              ($4, $2, $3, $5, 'issue_updated', '{}', now() - interval '20 days')`,
      [randomUUID(), ws.id, mine.id, randomUUID(), bob.userId],
    );
    const all = (await me.GET("/my/digest")).data!.events;
    expect(all.map((e) => e.type)).toEqual(["issue_updated", "issue_updated", "state_changed"]);
    expect(all[2]!.actor).toBeNull();

    const older = (
      await me.GET("/my/digest", {
        params: { query: { since: new Date(Date.now() - 30 * 864e5).toISOString() } },
      })
    ).data!.events;
    expect(older).toHaveLength(4);
    const limited = (await me.GET("/my/digest", { params: { query: { limit: 1 } } })).data!.events;
    expect(limited.map((e) => e.payload)).toEqual([{ changes: { title: { from: "One", to: "Two" } } }]);
    const tooMany = await me.GET("/my/digest", { params: { query: { limit: 201 } } });
    expect([tooMany.response.status, tooMany.error?.code]).toEqual([400, "invalid_request"]);
  });

  it("leaves out issues the caller can no longer see", async () => {
    const { adminToken, ws, bob, meId } = await setup();
    const guest = await srv.addMember(adminToken, "guest");
    const ops = await addTeam(srv, ws.id, "OPS", meId);
    await joinTeam(srv, ops.id, guest.userId);
    const gapi = srv.client(guest.token);
    const issue = await create(gapi, "Guest's", { team: "OPS" });
    await patch(bob.api, issue.identifier, { title: "Edited by Bob" });
    expect((await gapi.GET("/my/digest")).data!.events.map((e) => e.type)).toEqual(["issue_updated"]);
    await srv.query("delete from team_members where team_id = $1 and user_id = $2", [ops.id, guest.userId]);
    expect((await gapi.GET("/my/digest")).data!.events).toEqual([]);
  });
});
