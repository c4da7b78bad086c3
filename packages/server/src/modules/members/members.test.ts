import { describe, expect, it } from "vitest";
import { useTestServer } from "../../test/harness.js";

const srv = useTestServer();

describe("users and members", () => {
  it("lists the workspace's users with their role and marks the caller", async () => {
    const { apiKey, user } = await srv.bootstrap({ name: "Ada Admin" });
    const guest = await srv.addMember(apiKey.token, "guest", "gus@example.com");
    const res = await srv.client(guest.token).GET("/users");
    expect(res.data!.users).toEqual([
      { id: user.id, name: "Ada Admin", email: user.email, role: "admin", isMe: false, kind: "person" },
      { id: guest.userId, name: "gus", email: "gus@example.com", role: "guest", isMe: true, kind: "person" },
    ]);
  });

  it("lets admins change roles and refuses non-admins, changing nothing", async () => {
    const { apiKey } = await srv.bootstrap();
    const a = await srv.addMember(apiKey.token, "member");
    const b = await srv.addMember(apiKey.token, "member");
    const refused = await srv
      .client(a.token)
      .PATCH("/members/{userId}", { params: { path: { userId: b.userId } }, body: { role: "admin" } });
    expect(refused.response.status).toBe(403);
    expect(refused.error!.code).toBe("admin_required");
    expect(await srv.query("select role from memberships where user_id = $1", [b.userId])).toEqual([
      { role: "member" },
    ]);

    const ok = await srv
      .client(apiKey.token)
      .PATCH("/members/{userId}", { params: { path: { userId: b.userId } }, body: { role: "guest" } });
    expect(ok.data).toEqual({
      ok: true,
      user: {
        id: b.userId,
        name: expect.any(String),
        email: b.email,
        role: "guest",
        isMe: false,
        kind: "person",
      },
    });
    expect(await srv.query("select role from memberships where user_id = $1", [b.userId])).toEqual([
      { role: "guest" },
    ]);
  });

  it("refuses to demote or remove the last admin", async () => {
    const { apiKey, user } = await srv.bootstrap();
    const api = srv.client(apiKey.token);
    const demote = await api.PATCH("/members/{userId}", {
      params: { path: { userId: user.id } },
      body: { role: "member" },
    });
    expect(demote.response.status).toBe(409);
    expect(demote.error!.code).toBe("last_admin");
    const leave = await api.DELETE("/members/{userId}", { params: { path: { userId: user.id } } });
    expect(leave.response.status).toBe(409);
    expect(leave.error!.code).toBe("last_admin");

    // With a second admin, the first may step down.
    const other = await srv.addMember(apiKey.token, "admin");
    const ok = await api.PATCH("/members/{userId}", {
      params: { path: { userId: user.id } },
      body: { role: "member" },
    });
    expect(ok.response.status).toBe(200);
    const last = await srv
      .client(other.token)
      .PATCH("/members/{userId}", { params: { path: { userId: other.userId } }, body: { role: "member" } });
    expect(last.error!.code).toBe("last_admin");
  });

  it("never leaves a workspace without an admin when two admins demote each other at once", async () => {
    const { apiKey, user } = await srv.bootstrap();
    const other = await srv.addMember(apiKey.token, "admin");
    const [x, y] = await Promise.all([
      srv
        .client(apiKey.token)
        .PATCH("/members/{userId}", { params: { path: { userId: other.userId } }, body: { role: "member" } }),
      srv
        .client(other.token)
        .PATCH("/members/{userId}", { params: { path: { userId: user.id } }, body: { role: "member" } }),
    ]);
    // One wins. The other is refused: 409 last_admin when it ran alongside, or 403 admin_required when the
    // winner's demotion had already committed before it was authorised.
    const statuses = [x.response.status, y.response.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const admins = await srv.query(
      "select 1 from memberships m join users u on u.id = m.user_id where m.role = 'admin' and u.id = any($1)",
      [[user.id, other.userId]],
    );
    expect(admins).toHaveLength(1);
  });

  it("removing a member cuts their keys off at once and takes their team access", async () => {
    const { apiKey, workspace, team } = await srv.bootstrap({ team: { key: "OPS", name: "Ops" } });
    const m = await srv.addMember(apiKey.token, "member");
    const pinned = await srv
      .client(m.token)
      .POST("/api-keys", { body: { name: "pinned", scope: "workspace" } });
    await srv.query(
      "insert into team_members (id, team_id, user_id, created_at) values (gen_random_uuid(), $1, $2, now())",
      [team!.id, m.userId],
    );
    expect((await srv.client(m.token).GET("/users")).response.status).toBe(200);

    const removed = await srv
      .client(apiKey.token)
      .DELETE("/members/{userId}", { params: { path: { userId: m.userId } } });
    expect(removed.data).toEqual({ ok: true });

    const account = await srv.client(m.token, { "X-Service-Workspace": workspace.slug }).GET("/users");
    expect(account.response.status).toBe(403);
    expect(account.error!.code).toBe("workspace_forbidden");
    const workspaceKey = await srv.client(pinned.data!.key.token).GET("/users");
    expect(workspaceKey.response.status).toBe(401);
    expect(await srv.query("select 1 from team_members where user_id = $1", [m.userId])).toEqual([]);
  });

  it("lets a member leave by removing themself, but not remove others", async () => {
    const { apiKey } = await srv.bootstrap();
    const a = await srv.addMember(apiKey.token, "member");
    const b = await srv.addMember(apiKey.token, "member");
    const other = await srv
      .client(a.token)
      .DELETE("/members/{userId}", { params: { path: { userId: b.userId } } });
    expect(other.response.status).toBe(403);
    expect(other.error!.code).toBe("admin_required");
    const self = await srv
      .client(a.token)
      .DELETE("/members/{userId}", { params: { path: { userId: a.userId } } });
    expect(self.response.status).toBe(200);
  });

  it("answers 404 for a user who is not a member of this workspace", async () => {
    const { apiKey } = await srv.bootstrap();
    const stranger = await srv.bootstrap();
    const res = await srv.client(apiKey.token).PATCH("/members/{userId}", {
      params: { path: { userId: stranger.user.id } },
      body: { role: "guest" },
    });
    expect(res.response.status).toBe(404);
    expect(res.error!.code).toBe("not_found");
  });
});
