import { describe, expect, it } from "vitest";
import { useTestServer } from "../../test/harness.js";
import { insertIssue } from "../../test/issue-rows.js";

const srv = useTestServer();

/** A workspace with teams ENG and OPS, its admin client, and fixture helpers writing to the database. */
async function setup() {
  const boot = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const api = srv.client(boot.apiKey.token);
  const workspaceId = boot.workspace.id;
  const ops = await api.POST("/teams", { body: { key: "OPS", name: "Operations" } as never });
  const opsId = ops.data!.team.id;

  const issue = (title: string, team: string = boot.team!.id) => insertIssue(srv, workspaceId, team, title);
  /** A guest who belongs to ENG only. */
  async function guest() {
    const g = await srv.addMember(boot.apiKey.token, "guest");
    await srv.query(
      "insert into team_members (id, team_id, user_id, created_at) values (gen_random_uuid(), $1, $2, now())",
      [boot.team!.id, g.userId],
    );
    return { ...g, api: srv.client(g.token) };
  }
  return { ...boot, api, workspaceId, opsId, issue, guest };
}

describe("documents", () => {
  it("creates a document linked to issues and reads it back", async () => {
    const { api, user, issue, workspaceId } = await setup();
    await issue("First");
    await issue("Second");
    const created = await api.POST("/documents", {
      body: { title: "Design", team: "ENG", content: "# Plan\nShip it.", issues: ["eng-2", "ENG-1"] },
    });
    expect(created.response.status).toBe(201);
    const doc = created.data!.document;
    expect(doc).toEqual({
      id: expect.any(String),
      title: "Design",
      team: { key: "ENG", name: "Engineering" },
      content: "# Plan\nShip it.",
      creator: { id: user.id, name: user.name },
      issues: [
        { identifier: "ENG-1", title: "First" },
        { identifier: "ENG-2", title: "Second" },
      ],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const read = await api.GET("/documents/{id}", { params: { path: { id: doc.id } } });
    expect(read.data!.document).toEqual(doc);
    const changes = await srv.query(
      "select entity, action, team_key from change_events where workspace_id = $1 and entity_id = $2",
      [workspaceId, doc.id],
    );
    expect(changes).toEqual([{ entity: "document", action: "created", team_key: "ENG" }]);
  });

  it("creates nothing when a linked issue does not exist", async () => {
    const { api, issue, workspaceId } = await setup();
    await issue("First");
    const res = await api.POST("/documents", {
      body: { title: "Design", team: "ENG", issues: ["ENG-1", "ENG-99"] },
    });
    expect(res.response.status).toBe(404);
    expect(res.error!.code).toBe("not_found");
    expect(await srv.query("select 1 from documents where workspace_id = $1", [workspaceId])).toEqual([]);
  });

  it("updates title, content, team and the set of linked issues", async () => {
    const { api, issue, opsId } = await setup();
    await issue("First");
    await issue("Second");
    await issue("Ops work", opsId);
    const doc = (await api.POST("/documents", { body: { title: "Draft", team: "ENG", issues: ["ENG-1"] } }))
      .data!.document;
    const res = await api.PATCH("/documents/{id}", {
      params: { path: { id: doc.id } },
      body: { title: "Final", content: "Done.", team: "OPS", issues: ["ENG-2", "OPS-1"] },
    });
    expect(res.data!.document).toMatchObject({
      id: doc.id,
      title: "Final",
      content: "Done.",
      team: { key: "OPS", name: "Operations" },
      issues: [
        { identifier: "ENG-2", title: "Second" },
        { identifier: "OPS-1", title: "Ops work" },
      ],
    });
    expect(Date.parse(res.data!.document.updatedAt)).toBeGreaterThanOrEqual(Date.parse(doc.updatedAt));
    // Omitted fields stay; `issues: []` unlinks all.
    const cleared = await api.PATCH("/documents/{id}", {
      params: { path: { id: doc.id } },
      body: { issues: [] },
    });
    expect(cleared.data!.document).toMatchObject({ title: "Final", content: "Done.", issues: [] });
  });

  it("takes concurrent edits in turn while another request moves it between teams", async () => {
    const { api } = await setup();
    const doc = (await api.POST("/documents", { body: { title: "Shared", team: "ENG" } })).data!.document;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api.PATCH("/documents/{id}", {
          params: { path: { id: doc.id } },
          body: i % 2 ? { team: i % 4 === 1 ? "OPS" : "ENG" } : { content: `Edit ${i}` },
        }),
      ),
    );
    expect(results.map((r) => r.response.status)).toEqual(Array(12).fill(200));
  });

  it("leaves a document untouched when an update names a missing issue", async () => {
    const { api, issue } = await setup();
    await issue("First");
    const doc = (await api.POST("/documents", { body: { title: "Draft", team: "ENG", issues: ["ENG-1"] } }))
      .data!.document;
    const res = await api.PATCH("/documents/{id}", {
      params: { path: { id: doc.id } },
      body: { title: "Changed", issues: ["ENG-404"] },
    });
    expect(res.response.status).toBe(404);
    expect((await api.GET("/documents/{id}", { params: { path: { id: doc.id } } })).data!.document).toEqual(
      doc,
    );
  });

  it("lists by recency and filters by full-text query, linked issue and team", async () => {
    const { api, issue } = await setup();
    await issue("Login bug");
    const a = (
      await api.POST("/documents", {
        body: {
          title: "Authentication design",
          team: "ENG",
          content: "Passwords are hashed",
          issues: ["ENG-1"],
        },
      })
    ).data!.document;
    const b = (
      await api.POST("/documents", {
        body: { title: "Runbook", team: "OPS", content: "Restart the servers" },
      })
    ).data!.document;
    const c = (await api.POST("/documents", { body: { title: "Server inventory", team: "ENG" } })).data!
      .document;

    const all = await api.GET("/documents");
    expect(all.data!.documents.map((d) => d.id)).toEqual([c.id, b.id, a.id]);
    const search = async (q: string) =>
      (await api.GET("/documents", { params: { query: { q } } })).data!.documents.map((d) => d.title);
    expect(await search("server")).toEqual(["Server inventory", "Runbook"]);
    expect(await search("password")).toEqual(["Authentication design"]);
    expect(await search('"authentication design" -runbook')).toEqual(["Authentication design"]);
    expect(await search("nothingmatches")).toEqual([]);
    const byIssue = await api.GET("/documents", { params: { query: { issue: "ENG-1" } } });
    expect(byIssue.data!.documents.map((d) => d.id)).toEqual([a.id]);
    const byTeam = await api.GET("/documents", { params: { query: { team: "OPS" } } });
    expect(byTeam.data!.documents.map((d) => d.id)).toEqual([b.id]);
    const both = await api.GET("/documents", { params: { query: { team: "ENG", q: "server" } } });
    expect(both.data!.documents.map((d) => d.id)).toEqual([c.id]);
    const unknownIssue = await api.GET("/documents", { params: { query: { issue: "ENG-77" } } });
    expect(unknownIssue.response.status).toBe(404);
  });

  it("hides documents of teams the caller cannot see", async () => {
    const { api, guest, issue } = await setup();
    await issue("Eng issue");
    const eng = (await api.POST("/documents", { body: { title: "Eng doc", team: "ENG" } })).data!.document;
    const ops = (await api.POST("/documents", { body: { title: "Ops doc", team: "OPS" } })).data!.document;
    const g = await guest();
    expect((await g.api.GET("/documents")).data!.documents.map((d) => d.id)).toEqual([eng.id]);
    const hidden = await g.api.GET("/documents/{id}", { params: { path: { id: ops.id } } });
    expect(hidden.response.status).toBe(404);
    expect(hidden.error!.code).toBe("not_found");
    const edit = await g.api.PATCH("/documents/{id}", {
      params: { path: { id: ops.id } },
      body: { title: "Mine" },
    });
    expect(edit.response.status).toBe(404);
    const create = await g.api.POST("/documents", { body: { title: "Sneaky", team: "OPS" } });
    expect(create.response.status).toBe(404);
    // Any member who can see a document may edit it, guests included.
    const ok = await g.api.PATCH("/documents/{id}", {
      params: { path: { id: eng.id } },
      body: { content: "guest" },
    });
    expect(ok.data!.document.content).toBe("guest");
    const notAnId = await api.GET("/documents/{id}", { params: { path: { id: "not-an-id" } } });
    expect(notAnId.response.status).toBe(404);
  });

  it("hides linked issues the caller cannot see", async () => {
    const { api, guest, issue, opsId } = await setup();
    await issue("Eng issue");
    await issue("Ops issue", opsId);
    const doc = (
      await api.POST("/documents", { body: { title: "Both", team: "ENG", issues: ["ENG-1", "OPS-1"] } })
    ).data!.document;
    expect(doc.issues.map((i) => i.identifier)).toEqual(["ENG-1", "OPS-1"]);
    const g = await guest();
    const read = await g.api.GET("/documents/{id}", { params: { path: { id: doc.id } } });
    expect(read.data!.document.issues).toEqual([{ identifier: "ENG-1", title: "Eng issue" }]);
  });

  it("lets only the creator or an admin delete a document", async () => {
    const { api, apiKey, workspaceId, issue } = await setup();
    await issue("Linked");
    const member = await srv.addMember(apiKey.token, "member");
    const other = await srv.addMember(apiKey.token, "member");
    const mine = (
      await srv
        .client(member.token)
        .POST("/documents", { body: { title: "Member doc", team: "ENG", issues: ["ENG-1"] } })
    ).data!.document;

    const refused = await srv
      .client(other.token)
      .DELETE("/documents/{id}", { params: { path: { id: mine.id } } });
    expect(refused.response.status).toBe(403);
    expect(refused.error!.code).toBe("forbidden");
    expect(await srv.query("select 1 from documents where id = $1", [mine.id])).toHaveLength(1);

    const own = await srv
      .client(member.token)
      .DELETE("/documents/{id}", { params: { path: { id: mine.id } } });
    expect(own.data).toEqual({ ok: true });
    expect(await srv.query("select 1 from document_issues where document_id = $1", [mine.id])).toEqual([]);

    const theirs = (
      await srv.client(member.token).POST("/documents", { body: { title: "Again", team: "ENG" } })
    ).data!.document;
    const byAdmin = await api.DELETE("/documents/{id}", { params: { path: { id: theirs.id } } });
    expect(byAdmin.data).toEqual({ ok: true });
    expect(await srv.query("select 1 from documents where workspace_id = $1", [workspaceId])).toEqual([]);
    const again = await api.DELETE("/documents/{id}", { params: { path: { id: theirs.id } } });
    expect(again.response.status).toBe(404);
  });
});
