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
    expect(key).toMatchObject({ name: "deploy bot", scope: "workspace" });
    expect(key.token).toMatch(/^trk_[A-Za-z0-9_-]{20,}$/);

    const listed = await api.GET("/api-keys");
    const entry = listed.data!.keys.find((k) => k.id === key.id)!;
    expect(entry).toEqual({
      id: key.id,
      name: "deploy bot",
      scope: "workspace",
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
});
