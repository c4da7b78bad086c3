import { describe, expect, it } from "vitest";
import { useTestServer } from "../../test/harness.js";

const srv = useTestServer();

describe("API keys", () => {
  it("shows a new key's token once and stores only its hash", async () => {
    const { apiKey } = await srv.bootstrap();
    const api = srv.client(apiKey.token);
    const created = await api.POST("/api-keys", { body: { name: "deploy bot" } });
    expect(created.response.status).toBe(201);
    const key = created.data!.key;
    // Without `access`, full access as keys always had; without `expiresAt`, for ever.
    expect(key).toMatchObject({ name: "deploy bot", scope: "workspace", access: "admin", expiresAt: null });
    expect(key.token).toMatch(/^trk_[A-Za-z0-9_-]{20,}$/);

    const listed = await api.GET("/api-keys");
    const entry = listed.data!.keys.find((k) => k.id === key.id)!;
    expect(entry).toEqual({
      id: key.id,
      name: "deploy bot",
      scope: "workspace",
      access: "admin",
      expiresAt: null,
      lastUsedAt: null,
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(listed.data)).not.toContain(key.token);

    const stored = await srv.query("select * from api_keys where id = $1", [key.id]);
    expect(JSON.stringify(stored)).not.toContain(key.token);
  });

  it("records when a key was last used", async () => {
    const { apiKey } = await srv.bootstrap();
    await srv.client(apiKey.token).GET("/users");
    const listed = await srv.client(apiKey.token).GET("/api-keys");
    const me = listed.data!.keys.find((k) => k.id === apiKey.id)!;
    expect(me.lastUsedAt).not.toBeNull();
  });

  it("a deleted key stops working at once", async () => {
    const { apiKey } = await srv.bootstrap();
    const api = srv.client(apiKey.token);
    const created = await api.POST("/api-keys", { body: { name: "temp", scope: "account" } });
    const temp = srv.client(created.data!.key.token);
    expect((await temp.GET("/users")).response.status).toBe(200);
    const del = await api.DELETE("/api-keys/{id}", { params: { path: { id: created.data!.key.id } } });
    expect(del.data).toEqual({ ok: true });
    const after = await temp.GET("/users");
    expect(after.response.status).toBe(401);
    expect(after.error!.code).toBe("unauthenticated");
  });

  it("cannot delete someone else's key", async () => {
    const { apiKey } = await srv.bootstrap();
    const other = await srv.addMember(apiKey.token, "admin");
    const res = await srv
      .client(other.token)
      .DELETE("/api-keys/{id}", { params: { path: { id: apiKey.id } } });
    expect(res.response.status).toBe(404);
    expect((await srv.client(apiKey.token).GET("/users")).response.status).toBe(200);
  });

  it("a workspace key cannot mint an account key", async () => {
    const { apiKey } = await srv.bootstrap();
    const pinned = await srv.client(apiKey.token).POST("/api-keys", { body: { name: "pinned" } });
    const res = await srv
      .client(pinned.data!.key.token)
      .POST("/api-keys", { body: { name: "escalate", scope: "account" } });
    expect(res.response.status).toBe(403);
    expect(res.error!.code).toBe("forbidden");
  });

  it("lists a key's access level and expiry, and a read key cannot write", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const created = await api.POST("/api-keys", { body: { name: "reader", access: "read", expiresAt } });
    expect(created.data!.key).toMatchObject({ access: "read", expiresAt });
    const listed = (await api.GET("/api-keys")).data!.keys.find((k) => k.id === created.data!.key.id);
    expect(listed).toMatchObject({ access: "read", expiresAt });

    const reader = srv.client(created.data!.key.token);
    expect((await reader.GET("/issues")).response.status).toBe(200);
    const write = await reader.POST("/issues", { body: { team: "ENG", title: "Not by a reader" } });
    expect(write.response.status).toBe(403);
    expect(write.error!.code).toBe("insufficient_access");
    expect((await api.GET("/issues")).data!.issues).toEqual([]);
    // Nor may it mint itself a wider key.
    const mint = await reader.POST("/api-keys", { body: { name: "wider", access: "admin" } });
    expect(mint.error!.code).toBe("insufficient_access");
  });

  it("refuses an expired key with key_expired, cached or not", async () => {
    const { apiKey } = await srv.bootstrap();
    const api = srv.client(apiKey.token);
    const expiresAt = new Date(Date.now() + 4000);
    const created = await api.POST("/api-keys", {
      body: { name: "brief", expiresAt: expiresAt.toISOString() },
    });
    const brief = srv.client(created.data!.key.token);
    // A list confirms its caller in band, so the second call takes the caller from the server's cache.
    expect((await brief.GET("/issues")).response.status).toBe(200);
    expect((await brief.GET("/issues")).response.status).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt.getTime() - Date.now()) + 100));
    for (const res of [await brief.GET("/issues"), await brief.GET("/users")]) {
      expect(res.response.status).toBe(401);
      expect(res.error!.code).toBe("key_expired");
    }
    expect((await api.GET("/users")).response.status).toBe(200);
  });

  it("refuses an expiry in the past, and a key outliving the expiring key that makes it", async () => {
    const { apiKey } = await srv.bootstrap();
    const api = srv.client(apiKey.token);
    const past = await api.POST("/api-keys", {
      body: { name: "past", expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(past.response.status).toBe(400);
    expect(past.error!.errors?.[0]?.path).toBe("/body/expiresAt");

    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const expiring = await api.POST("/api-keys", {
      body: { name: "expiring", scope: "account", expiresAt: soon },
    });
    const child = srv.client(expiring.data!.key.token);
    for (const body of [
      { name: "for ever" },
      { name: "later", expiresAt: new Date(Date.now() + 7_200_000).toISOString() },
    ]) {
      const res = await child.POST("/api-keys", { body });
      expect(res.response.status).toBe(400);
      expect(res.error!.errors?.[0]?.path).toBe("/body/expiresAt");
    }
    const ok = await child.POST("/api-keys", { body: { name: "sooner", expiresAt: soon } });
    expect(ok.response.status).toBe(201);
  });
});
