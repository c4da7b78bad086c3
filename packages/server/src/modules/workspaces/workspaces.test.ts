import { describe, expect, it } from "vitest";
import { useTestServer } from "../../test/harness.js";

const srv = useTestServer();

describe("workspaces", () => {
  it("lists the caller's workspaces with role and the active one, without the workspace header", async () => {
    const { apiKey, workspace } = await srv.bootstrap({ workspaceName: "Acme Corp" });
    const res = await srv.client(apiKey.token).GET("/workspaces");
    expect(res.response.status).toBe(200);
    expect(res.data!.workspaces).toEqual([
      { id: workspace.id, name: "Acme Corp", slug: workspace.slug, role: "admin", isActive: true },
    ]);
    expect(res.response.headers.get("x-service-workspace")).toBeNull();
  });

  it("creates a workspace, makes the caller its admin and makes it the key's active workspace", async () => {
    const { apiKey, workspace: first } = await srv.bootstrap();
    const api = srv.client(apiKey.token);
    const created = await api.POST("/workspaces", { body: { name: "Second Shop" } });
    expect(created.response.status).toBe(201);
    expect(created.data!.workspace).toMatchObject({ name: "Second Shop", slug: "second-shop" });

    const users = await api.GET("/users");
    expect(users.response.headers.get("x-service-workspace")).toBe("second-shop");
    const list = await api.GET("/workspaces");
    expect(list.data!.workspaces.map((w) => [w.slug, w.role, w.isActive])).toEqual([
      [first.slug, "admin", false],
      ["second-shop", "admin", true],
    ]);
  });

  it("derives a free slug from the name, and refuses an explicit slug that is taken", async () => {
    const { apiKey } = await srv.bootstrap();
    const api = srv.client(apiKey.token);
    const a = await api.POST("/workspaces", { body: { name: "Twin" } });
    const b = await api.POST("/workspaces", { body: { name: "Twin" } });
    expect(a.data!.workspace.slug).not.toBe(b.data!.workspace.slug);
    const taken = await api.POST("/workspaces", { body: { name: "Other", slug: a.data!.workspace.slug } });
    expect(taken.response.status).toBe(409);
    expect(taken.error!.code).toBe("conflict");
  });

  it("rejects a bad body with the field that is wrong", async () => {
    const { apiKey } = await srv.bootstrap();
    const before = await srv.query("select count(*)::int as n from workspaces");
    const res = await srv.client(apiKey.token).POST("/workspaces", { body: { name: "" } });
    expect(res.response.status).toBe(400);
    expect(res.error!.code).toBe("invalid_request");
    expect(res.error!.errors).toEqual([expect.objectContaining({ path: "/body/name" })]);
    expect(await srv.query("select count(*)::int as n from workspaces")).toEqual(before);
  });

  it("renames the workspace for admins only", async () => {
    const { apiKey, workspace } = await srv.bootstrap();
    const member = await srv.addMember(apiKey.token, "member");
    const refused = await srv.client(member.token).PATCH("/workspace", { body: { name: "Hijacked" } });
    expect(refused.response.status).toBe(403);
    expect(refused.error!.code).toBe("admin_required");
    const ok = await srv.client(apiKey.token).PATCH("/workspace", { body: { name: "Renamed" } });
    expect(ok.data).toEqual({
      ok: true,
      workspace: { id: workspace.id, name: "Renamed", slug: workspace.slug, role: "admin", isActive: true },
    });
    const [row] = await srv.query<{ name: string }>("select name from workspaces where id = $1", [
      workspace.id,
    ]);
    expect(row!.name).toBe("Renamed");
  });

  it("reports that no code host is configured", async () => {
    const { apiKey } = await srv.bootstrap();
    const res = await srv.client(apiKey.token).GET("/workspace/codehost");
    expect(res.data).toEqual({ configured: false, provider: null, path: null, events: [] });
  });
});

describe("workspace resolution for account keys", () => {
  /** A user left in two workspaces (A and B) whose key has no active workspace any more: the ambiguous case. */
  async function userInTwoWorkspaces() {
    const a = await srv.bootstrap({ workspaceName: "Alpha Team" });
    const b = await srv.bootstrap({ workspaceName: "Beta Team" });
    const c = await srv.bootstrap({ workspaceName: "Gamma Team" });
    const email = `roamer-${Math.random().toString(36).slice(2)}@example.com`;
    const inA = await srv.addMember(a.apiKey.token, "member", email);
    await srv.addMember(b.apiKey.token, "member", email);
    await srv.addMember(c.apiKey.token, "member", email);
    // The roamer makes C active; C's admin then removes them, which clears the key's active workspace.
    await srv.client(inA.token).PUT("/workspaces/active", { body: { workspace: c.workspace.slug } });
    await srv
      .client(c.apiKey.token)
      .DELETE("/members/{userId}", { params: { path: { userId: inA.userId } } });
    return { token: inA.token, a, b, c };
  }

  it("fails with workspace_required and lists the options when the workspace is ambiguous", async () => {
    const { token, a, b } = await userInTwoWorkspaces();
    const res = await srv.client(token).GET("/users");
    expect(res.response.status).toBe(400);
    expect(res.error!.code).toBe("workspace_required");
    expect(res.error!.workspaces!.map((w) => w.slug).sort()).toEqual(
      [a.workspace.slug, b.workspace.slug].sort(),
    );
  });

  it("uses the header, else the query parameter, else the active workspace", async () => {
    const { token, a, b } = await userInTwoWorkspaces();
    const byHeader = await srv.client(token, { "X-Service-Workspace": b.workspace.slug }).GET("/users");
    expect(byHeader.response.headers.get("x-service-workspace")).toBe(b.workspace.slug);
    const byQuery = await srv
      .client(token)
      .GET("/users", { params: { query: { workspace: a.workspace.name } } });
    expect(byQuery.response.headers.get("x-service-workspace")).toBe(a.workspace.slug);
    const byId = await srv.client(token, { "X-Service-Workspace": a.workspace.id }).GET("/users");
    expect(byId.response.headers.get("x-service-workspace")).toBe(a.workspace.slug);

    const set = await srv.client(token).PUT("/workspaces/active", { body: { workspace: b.workspace.slug } });
    expect(set.data!.workspace.slug).toBe(b.workspace.slug);
    const byActive = await srv.client(token).GET("/users");
    expect(byActive.response.headers.get("x-service-workspace")).toBe(b.workspace.slug);
  });

  it("refuses a header and a query parameter that name different workspaces", async () => {
    const { token, a, b } = await userInTwoWorkspaces();
    const res = await srv
      .client(token, { "X-Service-Workspace": a.workspace.slug })
      .GET("/users", { params: { query: { workspace: b.workspace.slug } } });
    expect(res.response.status).toBe(400);
    expect(res.error!.code).toBe("invalid_request");
  });

  it("refuses a workspace the user is not a member of, whether or not it exists", async () => {
    const { token, c } = await userInTwoWorkspaces();
    for (const ws of [c.workspace.slug, "no-such-workspace"]) {
      const res = await srv.client(token, { "X-Service-Workspace": ws }).GET("/users");
      expect(res.response.status).toBe(403);
      expect(res.error!.code).toBe("workspace_forbidden");
      const active = await srv.client(token).PUT("/workspaces/active", { body: { workspace: ws } });
      expect(active.response.status).toBe(403);
    }
  });

  it("uses the owner's only workspace when the key has no active one", async () => {
    const { apiKey, workspace } = await srv.bootstrap();
    await srv.query("update api_keys set active_workspace_id = null where id = $1", [apiKey.id]);
    const res = await srv.client(apiKey.token).GET("/users");
    expect(res.response.headers.get("x-service-workspace")).toBe(workspace.slug);
  });
});

describe("workspace keys", () => {
  it("are pinned to their workspace: naming another is refused, not ignored", async () => {
    const { apiKey, workspace } = await srv.bootstrap();
    const other = await srv.client(apiKey.token).POST("/workspaces", { body: { name: "Elsewhere" } });
    const created = await srv.client(apiKey.token).POST("/api-keys", {
      headers: { "X-Service-Workspace": workspace.slug },
      body: { name: "ci", scope: "workspace" },
    });
    const pinned = srv.client(created.data!.key.token);

    const own = await pinned.GET("/users");
    expect(own.response.headers.get("x-service-workspace")).toBe(workspace.slug);
    const named = await srv
      .client(created.data!.key.token, { "X-Service-Workspace": workspace.slug })
      .GET("/users");
    expect(named.response.status).toBe(200);

    const elsewhere = await srv
      .client(created.data!.key.token, { "X-Service-Workspace": other.data!.workspace.slug })
      .GET("/users");
    expect(elsewhere.response.status).toBe(403);
    expect(elsewhere.error!.code).toBe("workspace_forbidden");
    const viaQuery = await pinned.GET("/users", {
      params: { query: { workspace: other.data!.workspace.id } },
    });
    expect(viaQuery.response.status).toBe(403);
    const activate = await pinned.PUT("/workspaces/active", {
      body: { workspace: other.data!.workspace.slug },
    });
    expect(activate.response.status).toBe(403);

    const listed = await pinned.GET("/workspaces");
    expect(listed.data!.workspaces.map((w) => w.slug)).toEqual([workspace.slug]);
    const create = await pinned.POST("/workspaces", { body: { name: "Not allowed" } });
    expect(create.response.status).toBe(403);
    expect(create.error!.code).toBe("forbidden");
  });
});
