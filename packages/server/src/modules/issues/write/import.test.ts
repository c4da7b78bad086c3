import { afterAll, describe, expect, it, vi } from "vitest";
import { useTestServer } from "../../../test/harness.js";

// A webhook endpoint on the loopback, only to read what the outbox queues for it.
vi.stubEnv("TRACKER_WEBHOOKS_ALLOW_PRIVATE", "1");
afterAll(() => {
  vi.unstubAllEnvs();
});

const srv = useTestServer();
const tokenOf = (url: string) => url.split("/").pop()!;

async function workspace() {
  const { apiKey, workspace } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  return { api: srv.client(apiKey.token), token: apiKey.token, ws: workspace.id };
}

const jira = (id: string) => ({ system: "jira", id, url: `https://jira.example.com/browse/${id}` });

describe("POST /import/issues (real server)", () => {
  it("keeps the original times, people and source; a second run updates instead of duplicating", async () => {
    const { api, ws, token } = await workspace();
    const member = await srv.addMember(token, "member");
    const hook = await api.POST("/webhooks", { body: { url: "http://127.0.0.1:9/hook" } });
    expect(hook.response.status).toBe(201);
    const items = [
      {
        source: jira("ENG-1"),
        team: "ENG",
        title: "Crash on save",
        state: "Done",
        priority: 1 as const,
        labels: ["Bug"],
        creator: "ada@example.com",
        assignee: "grace@example.com",
        createdAt: "2023-03-01T09:30:00Z",
        updatedAt: "2023-03-05T10:00:00Z",
        completedAt: "2023-03-04T16:00:00Z",
        comments: [
          {
            source: jira("c-1"),
            author: "grace@example.com",
            body: "Can reproduce.",
            createdAt: "2023-03-02T08:00:00Z",
          },
        ],
      },
      {
        source: jira("ENG-2"),
        parentSource: { system: "jira", id: "ENG-1" },
        team: "ENG",
        title: "Sub-task",
        assignee: member.email,
        createdAt: "2023-03-02T00:00:00.000Z",
        updatedAt: "2023-03-02T00:00:00.000Z",
      },
    ];
    const res = await api.POST("/import/issues", {
      body: { issues: items, names: { "ada@example.com": "Ada Lovelace" } },
    });
    expect(res.response.status).toBe(200);
    const [one, two] = res.data!.issues;
    expect(one).toMatchObject({ result: "created", source: jira("ENG-1") });
    expect(one!.comments).toMatchObject([{ result: "created", source: jira("c-1") }]);
    expect(one!.issue).toMatchObject({
      title: "Crash on save",
      state: { name: "Done", type: "completed" },
      createdAt: "2023-03-01T09:30:00.000Z",
      updatedAt: "2023-03-05T10:00:00.000Z",
      completedAt: "2023-03-04T16:00:00.000Z",
      assignee: { name: "grace", email: "grace@example.com" },
      labels: ["Bug"],
    });
    expect(two!.issue.parentId).toBe(one!.issue.id);

    const comments = await api.GET("/issues/{identifier}/comments", {
      params: { path: { identifier: one!.issue.identifier } },
    });
    expect(comments.data!.comments).toMatchObject([
      {
        body: "Can reproduce.",
        author: { email: "grace@example.com" },
        createdAt: "2023-03-02T08:00:00.000Z",
        updatedAt: "2023-03-02T08:00:00.000Z",
      },
    ]);
    const people = await srv.query<{ email: string; name: string; placeholder: boolean; members: number }>(
      `select u.email, u.name, u.placeholder, (select count(*)::int from memberships m where m.user_id = u.id) as members
         from users u where u.email in ('ada@example.com', 'grace@example.com') order by u.email`,
    );
    expect(people).toEqual([
      { email: "ada@example.com", name: "Ada Lovelace", placeholder: true, members: 0 },
      { email: "grace@example.com", name: "grace", placeholder: true, members: 0 },
    ]);
    const creator = await srv.query<{ email: string; at: string }>(
      `select u.email, to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as at
         from activity_events a join users u on u.id = a.actor_id
        where a.issue_id = $1 and a.type = 'issue_created'`,
      [one!.issue.id],
    );
    expect(creator).toEqual([{ email: "ada@example.com", at: "2023-03-01 09:30" }]);

    // Change events say they were imported; nobody is notified.
    const events = await srv.query<{ entity: string; imported: boolean }>(
      "select entity, imported from change_events where workspace_id = $1 and entity in ('issue', 'comment', 'label')",
      [ws],
    );
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.imported)).toBe(true);
    expect(await srv.query("select 1 from notifications where workspace_id = $1", [ws])).toEqual([]);
    const delivered = await srv.query<{ payload: string }>(
      "select d.payload from webhook_deliveries d where d.endpoint_id = $1",
      [hook.data!.webhook.id],
    );
    expect(delivered.length).toBeGreaterThan(0);
    for (const d of delivered) expect(JSON.parse(d.payload).data.imported).toBe(true);
    // Outside an import, the same kind of write is not imported and does notify.
    await api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: two!.issue.identifier } },
      body: { priority: 2 },
    });
    expect(
      await srv.query("select imported from change_events where workspace_id = $1 order by id desc limit 1", [
        ws,
      ]),
    ).toEqual([{ imported: false }]);
    await api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: two!.issue.identifier } },
      body: { priority: 0 },
    });

    // Again: the same issues updated, nothing new, nothing changed.
    const issuesBefore = await api.GET("/issues", { params: { query: { state: "all" } as never } });
    const again = await api.POST("/import/issues", { body: { issues: items } });
    expect(again.response.status).toBe(200);
    expect(again.data!.issues.map((i) => i.result)).toEqual(["updated", "updated"]);
    expect(again.data!.issues[0]!.comments.map((c) => c.result)).toEqual(["updated"]);
    expect(again.data!.issues.map((i) => i.issue)).toEqual(res.data!.issues.map((i) => i.issue));
    const issuesAfter = await api.GET("/issues", { params: { query: { state: "all" } as never } });
    expect(issuesAfter.data).toEqual(issuesBefore.data);
    expect(
      await srv.query("select count(*)::int as n from comments where issue_id = $1", [one!.issue.id]),
    ).toEqual([{ n: 1 }]);

    // A changed title in the other tracker updates the issue.
    const changed = await api.POST("/import/issues", {
      body: { issues: [{ ...items[1]!, title: "Sub-task, renamed", updatedAt: "2023-04-01T00:00:00Z" }] },
    });
    expect(changed.data!.issues[0]).toMatchObject({
      result: "updated",
      issue: {
        identifier: two!.issue.identifier,
        title: "Sub-task, renamed",
        updatedAt: "2023-04-01T00:00:00.000Z",
      },
    });
  });

  it("an invite to a placeholder's email claims it: the imported issues are the new member's", async () => {
    const { api } = await workspace();
    const res = await api.POST("/import/issues", {
      body: {
        issues: [
          {
            source: { system: "github", id: "1" },
            team: "ENG",
            title: "Theirs",
            creator: "lin@example.com",
            assignee: "lin@example.com",
          },
        ],
      },
    });
    expect(res.response.status).toBe(200);
    const invite = await api.POST("/invites", { body: { email: "lin@example.com" } });
    const accepted = await srv.client().POST("/invites/accept", {
      body: { token: tokenOf(invite.data!.invite.url), name: "Lin Real" },
    });
    expect(accepted.response.status).toBe(201);
    const lin = srv.client(accepted.data!.apiKey.token);
    const mine = await lin.GET("/issues", { params: { query: { assignee: "me" } } });
    expect(mine.data!.issues.map((i) => [i.title, i.assignee?.name])).toEqual([["Theirs", "Lin Real"]]);
    const row = await srv.query<{ placeholder: boolean }>(
      "select placeholder from users where email = 'lin@example.com'",
    );
    expect(row).toEqual([{ placeholder: false }]);
  });

  it("is for admins; a refused item writes nothing and says which item", async () => {
    const { api, token, ws } = await workspace();
    const member = await srv.addMember(token, "member");
    const asMember = await srv.client(member.token).POST("/import/issues", {
      body: { issues: [{ source: { system: "x", id: "1" }, team: "ENG", title: "No" }] },
    });
    expect(asMember.response.status).toBe(403);
    expect(asMember.error!.code).toBe("admin_required");

    const count = async () =>
      (
        await srv.query<{ n: number }>("select count(*)::int as n from issues where workspace_id = $1", [ws])
      )[0]!.n;
    const users = await srv.query("select count(*)::int as n from users");
    const bad = await api.POST("/import/issues", {
      body: {
        issues: [
          { source: { system: "x", id: "1" }, team: "ENG", title: "Fine", creator: "new@example.com" },
          { source: { system: "x", id: "2" }, team: "ENG", title: "Bad", state: "Nope" },
        ],
      },
    });
    expect(bad.response.status).toBe(400);
    expect(bad.error!.detail).toMatch(/^Issue 2 of 2: /);
    expect((bad.error as { errors: { path: string }[] }).errors[0]!.path).toBe("/body/issues/1");
    expect(await count()).toBe(0);
    expect(await srv.query("select count(*)::int as n from users")).toEqual(users);

    const missingParent = await api.POST("/import/issues", {
      body: {
        issues: [
          {
            source: { system: "x", id: "3" },
            parentSource: { system: "x", id: "404" },
            team: "ENG",
            title: "Orphan",
          },
        ],
      },
    });
    expect(missingParent.response.status).toBe(404);
    const badSource = await api.POST("/import/issues", {
      body: { issues: [{ source: { system: "Bad System", id: "1" }, team: "ENG", title: "x" }] },
    });
    expect(badSource.response.status).toBe(400);
  });
});
