import { describe, expect, it } from "vitest";
import { Stream } from "../../test/event-stream.js";
import { useTestServer } from "../../test/harness.js";

const srv = useTestServer();

async function setup() {
  const { apiKey, workspace, user } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const admin = srv.client(apiKey.token);
  const bob = await srv.addMember(apiKey.token, "member", "bob@example.com");
  const guest = await srv.addMember(apiKey.token, "guest", "gus@example.com");
  const made = await admin.POST("/agents", { body: { name: "triage-bot" } });
  expect(made.response.status).toBe(201);
  const agent = made.data!.agent;
  return {
    ws: workspace,
    token: apiKey.token,
    admin,
    adminId: user.id,
    bob: { ...bob, api: srv.client(bob.token) },
    guest: { ...guest, api: srv.client(guest.token) },
    agent: { ...agent, api: srv.client(agent.token) },
  };
}

describe("agents", () => {
  it("are app users of the workspace: listed as agents, kind agent among users, names unique", async () => {
    const { admin, agent, bob } = await setup();
    expect(agent).toMatchObject({ name: "triage-bot", access: "write", avatarUrl: null });
    expect(agent.token).toMatch(/^trk_/);
    expect((await bob.api.GET("/agents")).data!.agents).toEqual([
      { id: agent.id, name: "triage-bot", avatarUrl: null, access: "write", createdAt: agent.createdAt },
    ]);
    const users = (await admin.GET("/users")).data!.users;
    expect(users.filter((u) => u.kind === "agent").map((u) => u.name)).toEqual(["triage-bot"]);
    expect(users.filter((u) => u.kind === "person")).toHaveLength(3);

    const again = await admin.POST("/agents", { body: { name: "Triage-Bot" } });
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({ code: "conflict" });
    const byMember = await bob.api.POST("/agents", { body: { name: "other" } });
    expect(byMember.error).toMatchObject({ status: 403, code: "admin_required" });
    expect((await admin.GET("/agents")).data!.agents).toHaveLength(1);

    // It counts as no person: a team it joins has as many members as before.
    const count = async () =>
      (await admin.GET("/teams/{key}", { params: { path: { key: "ENG" } } })).data!.team.memberCount;
    const before = await count();
    expect(
      (await agent.api.POST("/teams/{key}/join", { params: { path: { key: "ENG" } } })).response.ok,
    ).toBe(true);
    expect(await count()).toBe(before);

    // The agent's key works, at its level.
    const me = await agent.api.GET("/users");
    expect(me.data!.users.find((u) => u.isMe)).toMatchObject({ kind: "agent", role: "member" });
  });

  it("are delegated issues: a session opens, the agent is told, and its activities drive the state", async () => {
    const { admin, agent, bob } = await setup();
    const issue = (await bob.api.POST("/issues", { body: { team: "ENG", title: "Crash on save" } })).data!
      .issue;
    expect(issue.delegate).toBeNull();
    const path = { params: { path: { identifier: issue.identifier } } };
    const stream = new Stream(srv.url, agent.token);
    await stream.opened();
    try {
      const updated = await bob.api.PATCH("/issues/{identifier}", {
        ...path,
        body: { delegate: "Triage-Bot" },
      });
      expect(updated.data!.issue.delegate).toEqual({ id: agent.id, name: "triage-bot" });
      expect(updated.data!.issue.assignee).toBeNull();
      // The list renders it too.
      const listed = (await admin.GET("/issues", { params: { query: { team: "ENG" } } })).data!.issues;
      expect(listed[0]!.delegate).toEqual({ id: agent.id, name: "triage-bot" });

      const mine = (await agent.api.GET("/agent-sessions")).data!.sessions;
      expect(mine).toHaveLength(1);
      const session = mine[0]!;
      expect(session).toMatchObject({
        agent: { id: agent.id, name: "triage-bot" },
        issue: { identifier: issue.identifier },
        trigger: "delegated",
        state: "pending",
        lastActivityAt: null,
      });
      await expect
        .poll(() => stream.changeBodies().filter((c) => c.entity === "agent_session"))
        .toEqual([
          expect.objectContaining({ action: "created", id: session.id, identifier: issue.identifier }),
        ]);
      const inbox = (await agent.api.GET("/my/notifications")).data!;
      expect(inbox.notifications.map((n) => [n.reason, n.event.type])).toEqual([
        ["delegated", "agent_session_created"],
      ]);
      // Delegating to the same agent again opens nothing.
      await bob.api.PATCH("/issues/{identifier}", { ...path, body: { delegate: agent.id } });
      expect((await agent.api.GET("/agent-sessions")).data!.sessions).toHaveLength(1);

      const id = { params: { path: { id: session.id } } };
      const thought = await agent.api.POST("/agent-sessions/{id}/activities", {
        ...id,
        body: { kind: "thought", body: "Looking at it" },
      });
      expect(thought.response.status).toBe(201);
      expect(thought.data!.session.state).toBe("active");
      expect(thought.data!.activity).toMatchObject({
        kind: "thought",
        author: { id: agent.id },
        action: null,
      });
      await expect
        .poll(() =>
          stream
            .changeBodies()
            .some((c) => c.entity === "agent_activity" && c.id === thought.data!.activity.id),
        )
        .toBe(true);

      const action = await agent.api.POST("/agent-sessions/{id}/activities", {
        ...id,
        body: { kind: "action", body: "Labelling", action: { name: "label", parameter: "bug" } },
      });
      expect(action.data!.activity.action).toEqual({ name: "label", parameter: "bug" });
      const noAction = await agent.api.POST("/agent-sessions/{id}/activities", {
        ...id,
        body: { kind: "action", body: "?" },
      });
      expect(noAction.error).toMatchObject({ status: 400, code: "invalid_request" });

      const ask = await agent.api.POST("/agent-sessions/{id}/activities", {
        ...id,
        body: { kind: "elicitation", body: "Which platform?" },
      });
      expect(ask.data!.session.state).toBe("awaiting_input");
      // Someone else may not post as the agent.
      const forged = await bob.api.POST("/agent-sessions/{id}/activities", {
        ...id,
        body: { kind: "response", body: "Done" },
      });
      expect(forged.error).toMatchObject({ status: 403, code: "forbidden" });

      // A person's comment answers the session waiting for input.
      await bob.api.POST("/issues/{identifier}/comments", { ...path, body: { body: "It is on Linux" } });
      const read = (await bob.api.GET("/agent-sessions/{id}", id)).data!;
      expect(read.session.state).toBe("pending");
      expect(read.activities.map((a) => [a.kind, a.body])).toEqual([
        ["thought", "Looking at it"],
        ["action", "Labelling"],
        ["elicitation", "Which platform?"],
        ["prompt", "It is on Linux"],
      ]);
      const done = await agent.api.POST("/agent-sessions/{id}/activities", {
        ...id,
        body: { kind: "response", body: "Labelled bug, priority high" },
      });
      expect(done.data!.session.state).toBe("complete");

      // The history shows the session opening and every activity, in order.
      const history = (await bob.api.GET("/issues/{identifier}/history", path)).data!.events;
      expect(history.map((e) => e.type)).toEqual([
        "issue_created",
        "issue_updated",
        "agent_session_created",
        "agent_activity",
        "agent_activity",
        "agent_activity",
        "comment_added",
        "agent_activity",
        "agent_activity",
      ]);
      expect(history[3]!.payload).toMatchObject({
        session: { id: session.id },
        activity: { kind: "thought" },
      });
      expect(history[1]!.payload).toEqual({
        changes: { delegate: { from: null, to: { id: agent.id, name: "triage-bot" } } },
      });
      // Paged, the same.
      const first = (
        await bob.api.GET("/issues/{identifier}/history", { params: { ...path.params, query: { limit: 4 } } })
      ).data!;
      const rest = (
        await bob.api.GET("/issues/{identifier}/history", {
          params: { ...path.params, query: { limit: 50, cursor: first.nextCursor! } },
        })
      ).data!;
      expect([...first.events, ...rest.events].map((e) => e.id)).toEqual(history.map((e) => e.id));

      // Clearing the delegate.
      const cleared = await bob.api.PATCH("/issues/{identifier}", { ...path, body: { delegate: null } });
      expect(cleared.data!.issue.delegate).toBeNull();
    } finally {
      stream.close();
    }
  });

  it("open a session when mentioned, take messages, and stop when told", async () => {
    const { agent, bob, guest, admin } = await setup();
    const issue = (await bob.api.POST("/issues", { body: { team: "ENG", title: "Slow list" } })).data!.issue;
    const path = { params: { path: { identifier: issue.identifier } } };
    await bob.api.POST("/issues/{identifier}/comments", {
      ...path,
      body: { body: "@triage-bot: have a look" },
    });
    const sessions = (
      await bob.api.GET("/agent-sessions", { params: { query: { issue: issue.identifier } } })
    ).data!.sessions;
    expect(sessions).toMatchObject([{ trigger: "mentioned", state: "pending", creator: { name: "bob" } }]);
    const id = { params: { path: { id: sessions[0]!.id } } };
    const agentInbox = (await agent.api.GET("/my/notifications")).data!.notifications;
    expect(agentInbox.map((n) => n.reason)).toEqual(["mentioned"]);
    // No mention, no session; a mention of something that is not an agent, none either.
    await bob.api.POST("/issues/{identifier}/comments", {
      ...path,
      body: { body: "email me@triage-bot.org" },
    });
    expect(
      (await bob.api.GET("/agent-sessions", { params: { query: { issue: issue.identifier } } })).data!
        .sessions,
    ).toHaveLength(1);

    const msg = await bob.api.POST("/agent-sessions/{id}/messages", { ...id, body: { body: "Any news?" } });
    expect(msg.data!.activity).toMatchObject({ kind: "prompt", author: { name: "bob" } });

    const refused = await guest.api.POST("/agent-sessions/{id}/stop", id);
    expect(refused.error).toMatchObject({ status: 403 });
    const stream = new Stream(srv.url, agent.token);
    await stream.opened();
    try {
      const stopped = await bob.api.POST("/agent-sessions/{id}/stop", id);
      expect(stopped.data!.session.state).toBe("stopped");
      await expect
        .poll(() => stream.changeBodies().some((c) => c.entity === "agent_session" && c.action === "updated"))
        .toBe(true);
    } finally {
      stream.close();
    }
    const read = (await agent.api.GET("/agent-sessions/{id}", id)).data!;
    expect(read.activities.at(-1)).toMatchObject({ kind: "stop", author: { name: "bob" } });
    const late = await agent.api.POST("/agent-sessions/{id}/activities", {
      ...id,
      body: { kind: "thought", body: "x" },
    });
    expect(late.error).toMatchObject({ status: 409, code: "conflict" });
    // Stopping again changes nothing.
    expect((await admin.POST("/agent-sessions/{id}/stop", id)).data!.session.state).toBe("stopped");
    expect((await agent.api.GET("/agent-sessions/{id}", id)).data!.activities).toHaveLength(
      read.activities.length,
    );
  });

  it("refuse delegating to what is not an agent, or to an agent that cannot see the issue, changing nothing", async () => {
    const { admin, bob, agent } = await setup();
    const issue = (await bob.api.POST("/issues", { body: { team: "ENG", title: "X" } })).data!.issue;
    const path = { params: { path: { identifier: issue.identifier } } };
    const unknown = await bob.api.PATCH("/issues/{identifier}", {
      ...path,
      body: { delegate: "bob", title: "Y" },
    });
    expect(unknown.error).toMatchObject({
      status: 400,
      code: "invalid_request",
      errors: [{ path: "/body/delegate" }],
    });
    // An agent is delegated an issue, never assigned it.
    const assigned = await bob.api.PATCH("/issues/{identifier}", { ...path, body: { assignee: agent.id } });
    expect(assigned.error).toMatchObject({ status: 400, errors: [{ path: "/body/assignee" }] });
    const created = await bob.api.POST("/issues", { body: { team: "ENG", title: "Z", assignee: agent.id } });
    expect(created.error).toMatchObject({ status: 400, code: "invalid_request" });
    // An issue in the admin's personal space, which the agent cannot see.
    await admin.POST("/teams", { body: { name: "Mine", key: "MINE", personal: true } });
    const secret = (await admin.POST("/issues", { body: { team: "MINE", title: "Secret" } })).data!.issue;
    const blind = await admin.PATCH("/issues/{identifier}", {
      params: { path: { identifier: secret.identifier } },
      body: { delegate: agent.name },
    });
    expect(blind.error).toMatchObject({ status: 400, code: "invalid_request" });
    const after = (await bob.api.GET("/issues/{identifier}", path)).data!.issue;
    expect(after).toMatchObject({ title: "X", delegate: null });
    expect(
      (await admin.GET("/agent-sessions", { params: { query: { issue: issue.identifier } } })).data!.sessions,
    ).toEqual([]);
  });

  it("are unresponsive after 10 s without a first activity, and stale after 30 minutes of silence", async () => {
    const { bob, agent } = await setup();
    const issue = (await bob.api.POST("/issues", { body: { team: "ENG", title: "Quiet" } })).data!.issue;
    await bob.api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: issue.identifier } },
      body: { delegate: agent.name },
    });
    const [session] = (await agent.api.GET("/agent-sessions")).data!.sessions;
    const id = { params: { path: { id: session!.id } } };
    const age = async (interval: string) =>
      srv.query(
        `update agent_sessions set created_at = created_at - interval '${interval}', state_at = state_at - interval '${interval}',
                last_activity_at = last_activity_at - interval '${interval}' where id = '${session!.id}'`,
      );
    await age("11 seconds");
    expect((await bob.api.GET("/agent-sessions/{id}", id)).data!.session.state).toBe("unresponsive");
    await agent.api.POST("/agent-sessions/{id}/activities", {
      ...id,
      body: { kind: "thought", body: "Here" },
    });
    expect((await bob.api.GET("/agent-sessions/{id}", id)).data!.session.state).toBe("active");
    await age("31 minutes");
    expect((await bob.api.GET("/agent-sessions/{id}", id)).data!.session.state).toBe("stale");
  });
});
