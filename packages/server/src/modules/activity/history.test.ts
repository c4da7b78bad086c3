import { describe, expect, it } from "vitest";
import { useTestServer } from "../../test/harness.js";
import { addTeam } from "../issues/issue-fixtures.js";

const srv = useTestServer();

async function setup() {
  const { apiKey, workspace, user } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const bob = await srv.addMember(apiKey.token, "member");
  return { me: srv.client(apiKey.token), token: apiKey.token, meId: user.id, ws: workspace, bob };
}

describe("getIssueHistory", () => {
  it("lists every change with who and when, oldest first, across a move and relations", async () => {
    const { me, meId, ws, bob } = await setup();
    await addTeam(srv, ws.id, "OPS", meId);
    const bobApi = srv.client(bob.token);
    const a = (await me.POST("/issues", { body: { team: "ENG", title: "First" } })).data!.issue;
    const b = (await me.POST("/issues", { body: { team: "ENG", title: "Other" } })).data!.issue;
    const path = { params: { path: { identifier: a.identifier } } };
    await bobApi.PATCH("/issues/{identifier}", {
      ...path,
      body: { title: "Renamed", priority: 2, estimate: 3, dueDate: "2026-12-01", description: "Why" },
    });
    await me.PATCH("/issues/{identifier}", { ...path, body: { state: "Todo", assignee: bob.userId } });
    await me.PATCH("/issues/{identifier}", { ...path, body: { labels: ["Bug"], parent: b.identifier } });
    const rel = (
      await bobApi.POST("/issues/{identifier}/relations", {
        ...path,
        body: { issue: b.identifier, type: "blocks" },
      })
    ).data!.relation;
    await me.DELETE("/issues/{identifier}/relations/{relationId}", {
      params: { path: { identifier: a.identifier, relationId: rel.id } },
    });
    const moved = await me.POST("/issues/move", { body: { identifiers: [a.identifier], team: "OPS" } });
    expect(moved.response.status).toBe(200);

    // Read under the old identifier: it still resolves, and the history came along.
    const res = await me.GET("/issues/{identifier}/history", path);
    expect(res.response.status).toBe(200);
    const events = res.data!.events;
    expect(events.map((e) => [e.type, e.actor?.id ?? null])).toEqual([
      ["issue_created", meId],
      ["issue_updated", bob.userId],
      ["state_changed", meId],
      ["assignee_changed", meId],
      ["labels_changed", meId],
      ["issue_updated", meId],
      ["relation_added", bob.userId],
      ["relation_removed", meId],
      ["issue_moved", meId],
    ]);
    expect(events[1]!.payload).toEqual({
      changes: {
        title: { from: "First", to: "Renamed" },
        priority: { from: 0, to: 2 },
        estimate: { from: null, to: 3 },
        dueDate: { from: null, to: "2026-12-01" },
        description: { from: null, to: "Why" },
      },
    });
    expect(events[3]!.payload).toEqual({ from: null, to: { id: bob.userId, name: expect.any(String) } });
    expect(events[5]!.payload).toEqual({ changes: { parent: { from: null, to: b.identifier } } });
    expect(events[6]!.payload).toEqual({
      type: "blocks",
      issue: { id: b.id, identifier: b.identifier, title: "Other" },
    });
    expect(events[8]!.payload).toMatchObject({
      from: { identifier: a.identifier },
      to: { identifier: "OPS-1", team: { key: "OPS" } },
    });
    expect(events.every((e) => e.issue.identifier === "OPS-1")).toBe(true);
    expect(res.data!.nextCursor).toBeNull();

    // The other side sees the relation from its own side.
    const other = (
      await me.GET("/issues/{identifier}/history", { params: { path: { identifier: b.identifier } } })
    ).data!.events;
    expect(other.filter((e) => e.type.startsWith("relation_")).map((e) => [e.type, e.payload.type])).toEqual([
      ["relation_added", "blocked_by"],
      ["relation_removed", "blocked_by"],
    ]);
  });

  it("pages by cursor without gaps or repeats, and refuses a cursor it did not make", async () => {
    const { me } = await setup();
    const a = (await me.POST("/issues", { body: { team: "ENG", title: "t0" } })).data!.issue;
    const path = { path: { identifier: a.identifier } };
    for (let i = 1; i <= 6; i++)
      await me.PATCH("/issues/{identifier}", { params: path, body: { title: `t${i}` } });

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = (
        await me.GET("/issues/{identifier}/history", {
          params: { ...path, query: { limit: 3, ...(cursor ? { cursor } : {}) } },
        })
      ).data!;
      seen.push(
        ...page.events.map((e) =>
          e.type === "issue_created" ? "t0" : (e.payload.changes as { title: { to: string } }).title.to,
        ),
      );
      cursor = page.nextCursor ?? undefined;
      pages++;
      // A change made while paging lands on a later page, never shifting the one read.
      if (pages === 1) await me.PATCH("/issues/{identifier}", { params: path, body: { title: "t7" } });
    } while (cursor);
    expect(seen).toEqual(["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"]);
    expect(pages).toBe(3);

    const bad = await me.GET("/issues/{identifier}/history", {
      params: { ...path, query: { cursor: "nope" } },
    });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ code: "invalid_request" });
  });

  it("is 404 for an issue the caller cannot see", async () => {
    const { me, ws, meId, token } = await setup();
    await addTeam(srv, ws.id, "OPS", meId);
    const ops = (await me.POST("/issues", { body: { team: "OPS", title: "Ops only" } })).data!.issue;
    const guest = srv.client((await srv.addMember(token, "guest")).token);
    const res = await guest.GET("/issues/{identifier}/history", {
      params: { path: { identifier: ops.identifier } },
    });
    expect(res.response.status).toBe(404);
    expect(res.error).toMatchObject({ code: "not_found" });
  });
});
