import { describe, expect, it } from "vitest";
import { useTestServer } from "../../test/harness.js";

const srv = useTestServer();

/** A workspace with team ENG, one issue in it, the admin's and a member's clients. */
async function setup() {
  const { apiKey, workspace, user } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const api = srv.client(apiKey.token);
  const member = await srv.addMember(apiKey.token, "member");
  const issue = (await api.POST("/issues", { body: { team: "ENG", title: "Talk", priority: 0 } })).data!
    .issue;
  const other = (await api.POST("/issues", { body: { team: "ENG", title: "Other", priority: 0 } })).data!
    .issue;
  return {
    api,
    adminToken: apiKey.token,
    ws: workspace,
    adminId: user.id,
    member,
    mapi: srv.client(member.token),
    issue,
    other,
  };
}

const onIssue = (identifier: string) => ({ params: { path: { identifier } } });
const onComment = (identifier: string, commentId: string) => ({
  params: { path: { identifier, commentId } },
});

describe("comments", () => {
  it("adds comments oldest first, bumps the issue and records comment_added", async () => {
    const { api, mapi, member, issue, adminId } = await setup();
    const first = await mapi.POST("/issues/{identifier}/comments", {
      ...onIssue(issue.identifier),
      body: { body: "One" },
    });
    expect(first.response.status).toBe(201);
    expect(first.data!.comment).toEqual({
      id: expect.any(String),
      body: "One",
      author: { id: member.userId, name: expect.any(String), email: member.email },
      createdAt: expect.any(String),
      updatedAt: first.data!.comment.createdAt,
      edited: false,
    });
    await api.POST("/issues/{identifier}/comments", { ...onIssue(issue.identifier), body: { body: "Two" } });
    const list = await mapi.GET("/issues/{identifier}/comments", onIssue(issue.identifier));
    expect(list.data!.comments.map((c) => [c.body, c.author.id])).toEqual([
      ["One", member.userId],
      ["Two", adminId],
    ]);
    const after = (await api.GET("/issues/{identifier}", onIssue(issue.identifier))).data!.issue;
    expect(after.updatedAt > issue.updatedAt).toBe(true);
    const long = "x".repeat(600);
    await api.POST("/issues/{identifier}/comments", { ...onIssue(issue.identifier), body: { body: long } });
    const events = await srv.query<{ actor_id: string; payload: { comment: { id: string; body: string } } }>(
      "select actor_id, payload from activity_events where issue_id = $1 and type = 'comment_added' order by created_at",
      [issue.id],
    );
    expect(events.map((e) => [e.actor_id, e.payload.comment.body.length])).toEqual([
      [member.userId, 3],
      [adminId, 3],
      [adminId, 500],
    ]);
    expect(events[0]!.payload.comment.id).toBe(first.data!.comment.id);
  });

  it("lets only the author edit, marking the comment edited when the body changes", async () => {
    const { api, mapi, issue, other } = await setup();
    const c = (
      await mapi.POST("/issues/{identifier}/comments", {
        ...onIssue(issue.identifier),
        body: { body: "Draft" },
      })
    ).data!.comment;
    const path = onComment(issue.identifier, c.id);
    const byAdmin = await api.PATCH("/issues/{identifier}/comments/{commentId}", {
      ...path,
      body: { body: "Admin edit" },
    });
    expect([byAdmin.response.status, byAdmin.error?.code]).toEqual([403, "forbidden"]);
    const same = await mapi.PATCH("/issues/{identifier}/comments/{commentId}", {
      ...path,
      body: { body: "Draft" },
    });
    expect(same.data!.comment).toMatchObject({ body: "Draft", edited: false, updatedAt: c.updatedAt });
    const wrongIssue = await mapi.PATCH("/issues/{identifier}/comments/{commentId}", {
      ...onComment(other.identifier, c.id),
      body: { body: "Elsewhere" },
    });
    expect([wrongIssue.response.status, wrongIssue.error?.code]).toEqual([404, "not_found"]);
    const edited = await mapi.PATCH("/issues/{identifier}/comments/{commentId}", {
      ...path,
      body: { body: "Final" },
    });
    expect(edited.data!.comment).toMatchObject({ id: c.id, body: "Final", edited: true });
    expect(edited.data!.comment.updatedAt > c.updatedAt).toBe(true);
    const [row] = await srv.query<{ body: string }>("select body from comments where id = $1", [c.id]);
    expect(row!.body).toBe("Final");
  });

  it("keeps each edited comment's earlier bodies, oldest first, for everyone who sees the issue", async () => {
    const { api, mapi, issue, other } = await setup();
    const c = (
      await mapi.POST("/issues/{identifier}/comments", { ...onIssue(issue.identifier), body: { body: "v1" } })
    ).data!.comment;
    const path = onComment(issue.identifier, c.id);
    const revisions = async () =>
      (await api.GET("/issues/{identifier}/comments/{commentId}/revisions", path)).data!.revisions;
    expect(await revisions()).toEqual([]);
    // An edit that changes nothing is no revision.
    await mapi.PATCH("/issues/{identifier}/comments/{commentId}", { ...path, body: { body: "v1" } });
    expect(await revisions()).toEqual([]);
    const v2 = (
      await mapi.PATCH("/issues/{identifier}/comments/{commentId}", { ...path, body: { body: "v2" } })
    ).data!.comment;
    await mapi.PATCH("/issues/{identifier}/comments/{commentId}", { ...path, body: { body: "v3" } });
    const seen = await revisions();
    expect(seen.map((r) => r.body)).toEqual(["v1", "v2"]);
    expect(seen[0]!.writtenAt).toBe(c.createdAt);
    expect(seen[0]!.replacedAt).toBe(v2.updatedAt);
    expect(seen[1]!.writtenAt).toBe(v2.updatedAt);
    // The member who wrote it reads them too; under another issue the comment is not found.
    expect(
      (await mapi.GET("/issues/{identifier}/comments/{commentId}/revisions", path)).data!.revisions,
    ).toHaveLength(2);
    const wrong = await api.GET(
      "/issues/{identifier}/comments/{commentId}/revisions",
      onComment(other.identifier, c.id),
    );
    expect([wrong.response.status, wrong.error?.code]).toEqual([404, "not_found"]);
    // They go with the comment.
    await api.DELETE("/issues/{identifier}/comments/{commentId}", path);
    expect(await srv.query("select 1 from comment_revisions where comment_id = $1", [c.id])).toEqual([]);
  });

  it("lets the author and admins delete, nobody else", async () => {
    const { api, adminToken, mapi, issue, other } = await setup();
    const byAdmin = (
      await api.POST("/issues/{identifier}/comments", { ...onIssue(issue.identifier), body: { body: "A" } })
    ).data!.comment;
    const byMember = (
      await mapi.POST("/issues/{identifier}/comments", { ...onIssue(issue.identifier), body: { body: "M" } })
    ).data!.comment;
    const third = srv.client((await srv.addMember(adminToken, "member")).token);
    const refused = await third.DELETE(
      "/issues/{identifier}/comments/{commentId}",
      onComment(issue.identifier, byMember.id),
    );
    expect([refused.response.status, refused.error?.code]).toEqual([403, "forbidden"]);
    const memberOnAdmin = await mapi.DELETE(
      "/issues/{identifier}/comments/{commentId}",
      onComment(issue.identifier, byAdmin.id),
    );
    expect(memberOnAdmin.response.status).toBe(403);
    const wrongIssue = await api.DELETE(
      "/issues/{identifier}/comments/{commentId}",
      onComment(other.identifier, byMember.id),
    );
    expect(wrongIssue.response.status).toBe(404);
    const bogus = await api.DELETE(
      "/issues/{identifier}/comments/{commentId}",
      onComment(issue.identifier, "nope"),
    );
    expect(bogus.response.status).toBe(404);
    expect(await srv.query("select id from comments where issue_id = $1", [issue.id])).toHaveLength(2);

    expect(
      (
        await mapi.DELETE(
          "/issues/{identifier}/comments/{commentId}",
          onComment(issue.identifier, byMember.id),
        )
      ).data,
    ).toEqual({
      ok: true,
    });
    expect(
      (await api.DELETE("/issues/{identifier}/comments/{commentId}", onComment(issue.identifier, byAdmin.id)))
        .data,
    ).toEqual({
      ok: true,
    });
    expect(
      (await api.GET("/issues/{identifier}/comments", onIssue(issue.identifier))).data!.comments,
    ).toEqual([]);
    const changes = await srv.query<{ action: string }>(
      "select action from change_events where entity = 'comment' and entity_id = $1 order by id",
      [byMember.id],
    );
    expect(changes.map((c) => c.action)).toEqual(["created", "deleted"]);
  });

  it("answers 404 on issues the caller cannot see, and writes nothing", async () => {
    const { adminToken, issue } = await setup();
    const gapi = srv.client((await srv.addMember(adminToken, "guest")).token);
    const list = await gapi.GET("/issues/{identifier}/comments", onIssue(issue.identifier));
    expect([list.response.status, list.error?.code]).toEqual([404, "not_found"]);
    const post = await gapi.POST("/issues/{identifier}/comments", {
      ...onIssue(issue.identifier),
      body: { body: "Hi" },
    });
    expect(post.response.status).toBe(404);
    expect(await srv.query("select id from comments where issue_id = $1", [issue.id])).toEqual([]);
  });
});
