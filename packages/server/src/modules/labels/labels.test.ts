import { randomUUID } from "node:crypto";
import type { components } from "@tracker/sdk/schema";
import { afterEach, describe, expect, it } from "vitest";
import { driftedLabelIds } from "../../test/derived-counts.js";
import { useTestServer } from "../../test/harness.js";
import { insertIssue } from "../../test/issue-rows.js";

type StateType = components["schemas"]["StateType"];

const srv = useTestServer();

/** A workspace with team ENG, its admin client, and helpers that write fixtures straight to the database. */
async function setup() {
  const boot = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const api = srv.client(boot.apiKey.token);
  const workspaceId = boot.workspace.id;
  const teamId = boot.team!.id;

  const issue = (title: string, labels: string[] = [], stateType: StateType = "unstarted", team = teamId) =>
    insertIssue(srv, workspaceId, team, title, { labels, stateType, age: "1 day" });
  async function label(name: string) {
    const res = await api.POST("/labels", { body: { name } });
    return res.data!.label;
  }
  const labelsOf = async (issueId: string) =>
    (
      await srv.query<{ name: string }>(
        "select l.name from issue_labels il join labels l on l.id = il.label_id where il.issue_id = $1 order by l.name",
        [issueId],
      )
    ).map((r) => r.name);
  const changes = (entity: string) =>
    srv.query<{ action: string; entity_id: string }>(
      "select action, entity_id from change_events where workspace_id = $1 and entity = $2 order by id",
      [workspaceId, entity],
    );
  return { ...boot, api, workspaceId, teamId, issue, label, labelsOf, changes };
}

describe("creating and listing labels", () => {
  it("creates a workspace label with a color picked from its name and lists labels by name", async () => {
    const { api, changes } = await setup();
    const created = await api.POST("/labels", { body: { name: "Bug", description: "Something broken" } });
    expect(created.response.status).toBe(201);
    expect(created.data!.label).toEqual({
      id: expect.any(String),
      name: "Bug",
      color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      description: "Something broken",
    });
    await api.POST("/labels", { body: { name: "api", color: "#123456" } });

    const list = await api.GET("/labels");
    expect(list.data!.labels).toEqual([
      { id: expect.any(String), name: "api", color: "#123456", description: null },
      created.data!.label,
    ]);
    expect(list.data!.labels[0]).not.toHaveProperty("issueCount");
    expect(await changes("label")).toEqual([
      { action: "created", entity_id: created.data!.label.id },
      { action: "created", entity_id: list.data!.labels[0]!.id },
    ]);
  });

  it("refuses a name another label has, regardless of case, creating nothing", async () => {
    const { api, workspaceId } = await setup();
    await api.POST("/labels", { body: { name: "Bug" } });
    const dup = await api.POST("/labels", { body: { name: "bUG" } });
    expect(dup.response.status).toBe(409);
    expect(dup.error!.code).toBe("label_name_taken");
    expect(await srv.query("select name from labels where workspace_id = $1", [workspaceId])).toEqual([
      { name: "Bug" },
    ]);
  });

  it("refuses guests, creating nothing", async () => {
    const { apiKey, workspaceId } = await setup();
    const guest = await srv.addMember(apiKey.token, "guest");
    const res = await srv.client(guest.token).POST("/labels", { body: { name: "Guest label" } });
    expect(res.response.status).toBe(403);
    expect(res.error!.code).toBe("forbidden");
    expect(await srv.query("select 1 from labels where workspace_id = $1", [workspaceId])).toEqual([]);
    // Guests may still read the workspace's labels.
    expect((await srv.client(guest.token).GET("/labels")).data).toEqual({ labels: [] });
  });

  it("counts issues and open issues per label across every team for admins only", async () => {
    const { api, apiKey, workspaceId, issue, label, user } = await setup();
    await label("Bug");
    await label("Unused");
    // A personal space of the admin and another team: both count.
    const personal = randomUUID();
    await srv.query(
      `insert into teams (id, workspace_id, key, name, personal, owner_id, cycles_enabled, cycle_length_weeks,
                          estimate_scale, issue_counter, created_at, updated_at)
       values ($1, $2, 'ME', 'Mine', true, $3, false, 2, 'none', 0, now(), now())`,
      [personal, workspaceId, user.id],
    );
    await srv.query(
      `insert into workflow_states (id, team_id, name, type, color, position)
       values (gen_random_uuid(), $1, 'Todo', 'unstarted', '#e2e2e2', 0),
              (gen_random_uuid(), $1, 'Done', 'completed', '#5e6ad2', 1),
              (gen_random_uuid(), $1, 'Canceled', 'canceled', '#95a2b3', 2)`,
      [personal],
    );
    await issue("open one", ["Bug"]);
    await issue("done one", ["Bug"], "completed");
    await issue("canceled one", ["Bug"], "canceled", personal);
    await issue("personal open", ["bug"], "unstarted", personal);
    await issue("no labels");

    const res = await api.GET("/labels", { params: { query: { counts: "1" } } });
    expect(res.data!.labels.map((l) => [l.name, l.issueCount, l.openIssueCount])).toEqual([
      ["Bug", 4, 2],
      ["Unused", 0, 0],
    ]);

    const member = await srv.addMember(apiKey.token, "member");
    const refused = await srv.client(member.token).GET("/labels", { params: { query: { counts: "1" } } });
    expect(refused.response.status).toBe(403);
    expect(refused.error!.code).toBe("admin_required");
  });
});

describe("renaming a label", () => {
  it("keeps the id and rewrites saved views' and view defaults' label filters in the same transaction", async () => {
    const { api, label, changes } = await setup();
    const bug = await label("Bug");
    await label("Frontend");
    const view = await api.POST("/views", {
      body: { name: "Bugs", filters: { label: ["bug", "Frontend"], special: ["mine"] } } as never,
    });
    const other = await api.POST("/views", {
      body: { name: "Frontend", filters: { label: ["Frontend"] } } as never,
    });
    await api.PUT("/view-defaults", { body: { viewKey: "issues:team:ENG", filters: { label: ["Bug"] } } });

    // The path takes the name too (case-insensitively).
    const renamed = await api.PATCH("/labels/{id}", {
      params: { path: { id: "BUG" } },
      body: { name: "Defect" },
    });
    expect(renamed.data!.label).toEqual({ ...bug, name: "Defect" });

    const views = await api.GET("/views");
    const byName = Object.fromEntries(views.data!.views.map((v) => [v.name, v.filters]));
    expect(byName).toEqual({
      Bugs: { label: ["Defect", "Frontend"], special: ["mine"] },
      Frontend: { label: ["Frontend"] },
    });
    const defaults = await api.GET("/view-defaults");
    expect(defaults.data!.defaults[0]!.filters).toEqual({ label: ["Defect"] });
    // The live stream hears of the label and of the view and default whose filters changed.
    expect((await changes("label")).at(-1)).toEqual({ action: "updated", entity_id: bug.id });
    expect((await changes("view")).map((c) => c.entity_id)).toContain(view.data!.view.id);
    expect((await changes("view")).filter((c) => c.entity_id === other.data!.view.id)).toHaveLength(1);
    expect((await changes("view_default")).map((c) => c.action)).toEqual(["created", "updated"]);
  });

  it("refuses a name another label has and changes nothing, views included", async () => {
    const { api, label, workspaceId } = await setup();
    const bug = await label("Bug");
    await label("Defect");
    await api.POST("/views", { body: { name: "Bugs", filters: { label: ["Bug"] } } as never });
    const res = await api.PATCH("/labels/{id}", {
      params: { path: { id: bug.id } },
      body: { name: "defect", color: "#000000" },
    });
    expect(res.response.status).toBe(409);
    expect(res.error!.code).toBe("label_name_taken");
    expect(
      await srv.query("select name, color from labels where workspace_id = $1 order by name", [workspaceId]),
    ).toEqual([
      { name: "Bug", color: bug.color },
      { name: "Defect", color: expect.any(String) },
    ]);
    expect((await api.GET("/views")).data!.views[0]!.filters).toEqual({ label: ["Bug"] });
  });

  it("allows a case-only rename and partial updates of color and description", async () => {
    const { api, label } = await setup();
    const bug = await label("bug");
    const res = await api.PATCH("/labels/{id}", { params: { path: { id: bug.id } }, body: { name: "Bug" } });
    expect(res.data!.label.name).toBe("Bug");
    const recolored = await api.PATCH("/labels/{id}", {
      params: { path: { id: bug.id } },
      body: { color: "#abcdef", description: "Broken things" },
    });
    expect(recolored.data!.label).toEqual({
      id: bug.id,
      name: "Bug",
      color: "#abcdef",
      description: "Broken things",
    });
    const cleared = await api.PATCH("/labels/{id}", {
      params: { path: { id: bug.id } },
      body: { description: null },
    });
    expect(cleared.data!.label.description).toBeNull();
  });

  it("answers 404 for a label of another workspace and 403 for guests", async () => {
    const { api, apiKey } = await setup();
    const elsewhere = await setup();
    const foreign = await elsewhere.label("Foreign");
    const res = await api.PATCH("/labels/{id}", {
      params: { path: { id: foreign.id } },
      body: { name: "Mine" },
    });
    expect(res.response.status).toBe(404);
    expect(res.error!.code).toBe("not_found");
    const guest = await srv.addMember(apiKey.token, "guest");
    const own = await api.POST("/labels", { body: { name: "Own" } });
    const refused = await srv
      .client(guest.token)
      .PATCH("/labels/{id}", { params: { path: { id: own.data!.label.id } }, body: { name: "Guest" } });
    expect(refused.response.status).toBe(403);
    expect(refused.error!.code).toBe("forbidden");
  });
});

describe("deleting a label", () => {
  it("removes it from every issue and every saved filter", async () => {
    const { api, label, issue, labelsOf, changes } = await setup();
    const bug = await label("Bug");
    await label("UI");
    const a = await issue("A", ["Bug", "UI"]);
    const b = await issue("B", ["Bug"]);
    await api.POST("/views", { body: { name: "Bugs", filters: { label: ["Bug"], q: "crash" } } as never });
    await api.POST("/views", { body: { name: "Both", filters: { label: ["UI", "bug"] } } as never });
    await api.PUT("/view-defaults", { body: { viewKey: "my-issues", filters: { label: ["Bug"] } } });

    const res = await api.DELETE("/labels/{id}", { params: { path: { id: "Bug" } } });
    expect(res.data).toEqual({ deleted: true });
    expect(await labelsOf(a)).toEqual(["UI"]);
    expect(await labelsOf(b)).toEqual([]);
    expect((await api.GET("/labels")).data!.labels.map((l) => l.name)).toEqual(["UI"]);
    const views = Object.fromEntries((await api.GET("/views")).data!.views.map((v) => [v.name, v.filters]));
    // An emptied label filter disappears instead of filtering on nothing.
    expect(views).toEqual({ Bugs: { q: "crash" }, Both: { label: ["UI"] } });
    expect((await api.GET("/view-defaults")).data!.defaults[0]!.filters).toEqual({});
    expect((await changes("label")).at(-1)).toEqual({ action: "deleted", entity_id: bug.id });
    expect((await changes("issue")).map((c) => c.entity_id).sort()).toEqual([a, b].sort());
    // No activity is recorded for a delete.
    expect(await srv.query("select 1 from activity_events where issue_id = any($1)", [[a, b]])).toEqual([]);
  });

  it("answers 404 for an unknown label and refuses guests", async () => {
    const { api, apiKey, label } = await setup();
    const missing = await api.DELETE("/labels/{id}", { params: { path: { id: randomUUID() } } });
    expect(missing.response.status).toBe(404);
    const bug = await label("Bug");
    const guest = await srv.addMember(apiKey.token, "guest");
    const refused = await srv
      .client(guest.token)
      .DELETE("/labels/{id}", { params: { path: { id: bug.id } } });
    expect(refused.response.status).toBe(403);
    expect(refused.error!.code).toBe("forbidden");
    expect(await srv.query("select 1 from labels where id = $1", [bug.id])).toHaveLength(1);
  });
});

describe("merging labels", () => {
  it("moves issues to the target, collapses those that had both, rewrites filters and deletes the source", async () => {
    const { api, label, issue, labelsOf, user, changes } = await setup();
    const source = await label("Defect");
    const target = await label("Bug");
    const onlySource = await issue("only source", ["Defect"]);
    const both = await issue("both", ["Defect", "Bug", "UI"]);
    const onlyTarget = await issue("only target", ["Bug"]);
    await api.POST("/views", { body: { name: "Mixed", filters: { label: ["Bug", "defect"] } } as never });
    await api.POST("/views", { body: { name: "Source", filters: { label: ["Defect", "UI"] } } as never });

    const res = await api.POST("/labels/{id}/merge", {
      params: { path: { id: source.id } },
      body: { into: "bug" },
    });
    expect(res.data).toEqual({ label: target, moved: 1, collapsed: 1 });
    expect(await labelsOf(onlySource)).toEqual(["Bug"]);
    expect(await labelsOf(both)).toEqual(["Bug"]);
    expect(await labelsOf(onlyTarget)).toEqual(["Bug"]);
    expect(await srv.query("select 1 from labels where id = $1", [source.id])).toEqual([]);

    const views = Object.fromEntries((await api.GET("/views")).data!.views.map((v) => [v.name, v.filters]));
    expect(views).toEqual({ Mixed: { label: ["Bug"] }, Source: { label: ["Bug", "UI"] } });

    const events = await srv.query<{ issue_id: string; actor_id: string; payload: unknown }>(
      "select issue_id, actor_id, payload from activity_events where type = 'labels_changed' order by created_at",
    );
    expect(events.filter((e) => [onlySource, both, onlyTarget].includes(e.issue_id))).toEqual(
      expect.arrayContaining([
        {
          issue_id: onlySource,
          actor_id: user.id,
          payload: { added: ["Bug"], removed: ["Defect"], mergedFrom: "Defect" },
        },
        {
          issue_id: both,
          actor_id: user.id,
          payload: { added: [], removed: ["Defect"], mergedFrom: "Defect" },
        },
      ]),
    );
    expect(events.filter((e) => [onlySource, both, onlyTarget].includes(e.issue_id))).toHaveLength(2);
    expect((await changes("issue")).map((c) => c.entity_id).sort()).toEqual([onlySource, both].sort());
  });

  it("changes nothing when the target does not exist", async () => {
    const { api, label, issue, labelsOf } = await setup();
    const source = await label("Defect");
    const a = await issue("A", ["Defect"]);
    await api.POST("/views", { body: { name: "Defects", filters: { label: ["Defect"] } } as never });
    const res = await api.POST("/labels/{id}/merge", {
      params: { path: { id: source.id } },
      body: { into: "Nope" },
    });
    expect(res.response.status).toBe(404);
    expect(res.error!.code).toBe("not_found");
    expect(await labelsOf(a)).toEqual(["Defect"]);
    expect((await api.GET("/views")).data!.views[0]!.filters).toEqual({ label: ["Defect"] });
    expect(await srv.query("select 1 from activity_events where issue_id = $1", [a])).toEqual([]);
  });

  it("refuses merging a label into itself and refuses guests", async () => {
    const { api, apiKey, label, issue, labelsOf } = await setup();
    const bug = await label("Bug");
    const target = await label("Defect");
    const a = await issue("A", ["Bug"]);
    const self = await api.POST("/labels/{id}/merge", {
      params: { path: { id: bug.id } },
      body: { into: "BUG" },
    });
    expect(self.response.status).toBe(400);
    expect(self.error!.code).toBe("invalid_request");
    const guest = await srv.addMember(apiKey.token, "guest");
    const refused = await srv
      .client(guest.token)
      .POST("/labels/{id}/merge", { params: { path: { id: bug.id } }, body: { into: target.id } });
    expect(refused.response.status).toBe(403);
    expect(refused.error!.code).toBe("forbidden");
    expect(await labelsOf(a)).toEqual(["Bug"]);
  });
});

// Whatever these tests wrote, the label ids kept on issues (list pages read them) match their labels.
afterEach(async () => {
  expect(await driftedLabelIds(srv)).toEqual([]);
});
