import { describe, expect, it } from "vitest";
import { useTestServer } from "../../test/harness.js";

const srv = useTestServer();

const tokenOf = (url: string) => url.split("/").pop()!;

describe("invites", () => {
  it("creates an invite with a link, lists it, and accepting it creates the user with an account key", async () => {
    const { apiKey, workspace } = await srv.bootstrap();
    const api = srv.client(apiKey.token);
    const created = await api.POST("/invites", { body: { email: "New.Person@Example.com", role: "member" } });
    expect(created.response.status).toBe(201);
    expect(created.data!.invite).toMatchObject({ email: "new.person@example.com", role: "member" });
    expect(created.data!.invite.url).toMatch(/^http:\/\/.+\/invite\/inv_/);

    const listed = await api.GET("/invites");
    expect(listed.data!.invites).toEqual([
      {
        id: created.data!.invite.id,
        email: "new.person@example.com",
        role: "member",
        expiresAt: expect.any(String),
      },
    ]);
    const expiresIn = Date.parse(listed.data!.invites[0]!.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(6.9 * 86_400_000);

    const accepted = await srv.client().POST("/invites/accept", {
      body: { token: tokenOf(created.data!.invite.url), name: "New Person" },
    });
    expect(accepted.response.status).toBe(201);
    expect(accepted.data!.workspace.id).toBe(workspace.id);
    expect(accepted.data!.user).toMatchObject({ name: "New Person", email: "new.person@example.com" });
    expect(accepted.data!.apiKey.scope).toBe("account");

    const users = await srv.client(accepted.data!.apiKey.token).GET("/users");
    expect(users.data!.users.find((u) => u.isMe)).toMatchObject({ role: "member", name: "New Person" });
    expect((await api.GET("/invites")).data!.invites).toEqual([]);
  });

  it("refuses a used invite, an expired one and an unknown token", async () => {
    const { apiKey } = await srv.bootstrap();
    const api = srv.client(apiKey.token);
    const inv = await api.POST("/invites", { body: { email: "once@example.com" } });
    const token = tokenOf(inv.data!.invite.url);
    expect(
      (await srv.client().POST("/invites/accept", { body: { token, name: "Once" } })).response.status,
    ).toBe(201);
    const again = await srv.client().POST("/invites/accept", { body: { token, name: "Once" } });
    expect(again.response.status).toBe(409);
    expect(again.error!.code).toBe("invite_used");

    const old = await api.POST("/invites", { body: { email: "late@example.com" } });
    await srv.query("update invites set expires_at = now() - interval '1 minute' where id = $1", [
      old.data!.invite.id,
    ]);
    const users = await srv.query("select count(*)::int as n from users");
    const expired = await srv
      .client()
      .POST("/invites/accept", { body: { token: tokenOf(old.data!.invite.url), name: "Late" } });
    expect(expired.response.status).toBe(410);
    expect(expired.error!.code).toBe("invite_expired");
    expect(await srv.query("select count(*)::int as n from users")).toEqual(users);

    const unknown = await srv.client().POST("/invites/accept", { body: { token: "inv_nope", name: "X" } });
    expect(unknown.response.status).toBe(404);
  });

  it("adds an existing user, keeping their name, and needs a name for a new one", async () => {
    const a = await srv.bootstrap();
    const b = await srv.bootstrap({ name: "Bea Existing" });
    const inv = await srv
      .client(a.apiKey.token)
      .POST("/invites", { body: { email: b.user.email, role: "guest" } });
    const ok = await srv.client().POST("/invites/accept", { body: { token: tokenOf(inv.data!.invite.url) } });
    expect(ok.response.status).toBe(201);
    expect(ok.data!.user).toEqual({ id: b.user.id, name: "Bea Existing", email: b.user.email });

    const fresh = await srv
      .client(a.apiKey.token)
      .POST("/invites", { body: { email: "nameless@example.com" } });
    const noName = await srv
      .client()
      .POST("/invites/accept", { body: { token: tokenOf(fresh.data!.invite.url) } });
    expect(noName.response.status).toBe(400);
    expect(noName.error!.errors).toEqual([expect.objectContaining({ path: "/body/name" })]);
    expect(await srv.query("select 1 from users where email = 'nameless@example.com'")).toEqual([]);
  });

  it("replaces a pending invite for the same email and refuses inviting a member", async () => {
    const { apiKey, user } = await srv.bootstrap();
    const api = srv.client(apiKey.token);
    const first = await api.POST("/invites", { body: { email: "twice@example.com" } });
    const second = await api.POST("/invites", { body: { email: "twice@example.com", role: "guest" } });
    expect((await api.GET("/invites")).data!.invites.map((i) => i.id)).toEqual([second.data!.invite.id]);
    const stale = await srv
      .client()
      .POST("/invites/accept", { body: { token: tokenOf(first.data!.invite.url), name: "T" } });
    expect(stale.response.status).toBe(404);

    const member = await api.POST("/invites", { body: { email: user.email } });
    expect(member.response.status).toBe(409);
  });

  it("only admins invite and revoke invites", async () => {
    const { apiKey } = await srv.bootstrap();
    const member = await srv.addMember(apiKey.token, "member");
    const inv = await srv.client(apiKey.token).POST("/invites", { body: { email: "x@example.com" } });
    const create = await srv.client(member.token).POST("/invites", { body: { email: "y@example.com" } });
    expect(create.error!.code).toBe("admin_required");
    const del = await srv
      .client(member.token)
      .DELETE("/invites/{id}", { params: { path: { id: inv.data!.invite.id } } });
    expect(del.error!.code).toBe("admin_required");
    const ok = await srv
      .client(apiKey.token)
      .DELETE("/invites/{id}", { params: { path: { id: inv.data!.invite.id } } });
    expect(ok.data).toEqual({ ok: true });
    expect((await srv.client(apiKey.token).GET("/invites")).data!.invites).toEqual([]);
  });
});
