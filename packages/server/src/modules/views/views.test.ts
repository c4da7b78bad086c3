import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../../test/harness.js";

const srv = useTestServer();

async function setup() {
  const boot = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const api = srv.client(boot.apiKey.token);
  const changes = (entity: string) =>
    srv.query<{ action: string; entity_id: string }>(
      "select action, entity_id from change_events where workspace_id = $1 and entity = $2 order by id",
      [boot.workspace.id, entity],
    );
  return { ...boot, api, changes };
}

// The generated request types mark fields with a contract default as required; the server applies them.
type ViewBody = Record<string, unknown> & { name: string };
const asBody = (b: ViewBody) => b as never;

describe("saved views", () => {
  it("saves a view with the contract's defaults and lists only the caller's, favorites first", async () => {
    const { api, apiKey, changes } = await setup();
    const created = await api.POST("/views", { body: asBody({ name: "Mine" }) });
    expect(created.response.status).toBe(201);
    expect(created.data!.view).toEqual({
      id: expect.any(String),
      name: "Mine",
      kind: "issues",
      team: null,
      display: "list",
      grouping: "status",
      filters: {},
      sort: null,
      favorite: false,
    });
    const full = await api.POST("/views", {
      body: asBody({
        name: "Eng board",
        kind: "issues",
        team: "ENG",
        display: "board",
        grouping: "assignee",
        filters: { stateType: ["started"], label: ["Bug"], cycle: "current", special: ["overdue"] },
        sort: "-priority",
        favorite: true,
      }),
    });
    expect(full.data!.view).toMatchObject({
      team: "ENG",
      display: "board",
      grouping: "assignee",
      filters: { stateType: ["started"], label: ["Bug"], cycle: "current", special: ["overdue"] },
      sort: "-priority",
      favorite: true,
    });
    await api.POST("/views", {
      body: asBody({
        name: "At risk projects",
        kind: "projects",
        filters: { health: ["at_risk"] },
        sort: "target",
      }),
    });

    const other = await srv.addMember(apiKey.token, "member");
    await srv.client(other.token).POST("/views", { body: asBody({ name: "Theirs" }) });

    const list = await api.GET("/views");
    expect(list.data!.views.map((v) => v.name)).toEqual(["Eng board", "At risk projects", "Mine"]);
    expect((await srv.client(other.token).GET("/views")).data!.views.map((v) => v.name)).toEqual(["Theirs"]);
    expect((await changes("view")).filter((c) => c.action === "created")).toHaveLength(4);
  });

  it("refuses unknown filter keys, badly shaped values and sorts of another kind, saving nothing", async () => {
    const { api, user } = await setup();
    const refusals = [
      { name: "Unknown key", filters: { colour: "red" } },
      { name: "Label as text", filters: { label: "Bug" } },
      { name: "Bad state type", filters: { stateType: ["doing"] } },
      { name: "Bad cycle", filters: { cycle: 0 } },
      { name: "Issue key on projects", kind: "projects", filters: { assignee: "me" } },
      { name: "Paging is not a filter", filters: { limit: 10 } },
      { name: "Project sort on issues", sort: "progress" },
      { name: "Issue sort on initiatives", kind: "initiatives", sort: "priority" },
    ];
    for (const body of refusals) {
      const res = await api.POST("/views", { body: asBody(body) });
      expect(res.response.status, body.name).toBe(400);
      expect(res.error!.code).toBe("invalid_request");
    }
    expect(await srv.query("select 1 from saved_views where owner_id = $1", [user.id])).toEqual([]);
    const unknownTeam = await api.POST("/views", { body: asBody({ name: "Nope", team: "NOPE" }) });
    expect(unknownTeam.response.status).toBe(404);
  });

  it("updates parts of a view, replacing filters whole", async () => {
    const { api, changes } = await setup();
    const view = (
      await api.POST("/views", {
        body: asBody({ name: "Eng", team: "ENG", filters: { label: ["Bug"], q: "crash" }, sort: "due" }),
      })
    ).data!.view;
    const res = await api.PATCH("/views/{id}", {
      params: { path: { id: view.id } },
      body: { name: "Eng crashes", filters: { q: "crash" }, favorite: true, team: null },
    });
    const [after] = (await api.GET("/views")).data!.views;
    expect(res.data).toEqual({ ok: true, view: after });
    expect(after).toEqual({
      ...view,
      name: "Eng crashes",
      filters: { q: "crash" },
      favorite: true,
      team: null,
    });
    expect((await changes("view")).map((c) => c.action)).toEqual(["created", "updated"]);

    const badSort = await api.PATCH("/views/{id}", {
      params: { path: { id: view.id } },
      body: { sort: "scope" },
    });
    expect(badSort.response.status).toBe(400);
    const badFilter = await api.PATCH("/views/{id}", {
      params: { path: { id: view.id } },
      body: { name: "Renamed", filters: { owner: "me" } },
    });
    expect(badFilter.response.status).toBe(400);
    expect((await api.GET("/views")).data!.views[0]).toEqual(after);
  });

  it("keeps views private: another user's view is not found", async () => {
    const { api, apiKey } = await setup();
    const view = (await api.POST("/views", { body: asBody({ name: "Private" }) })).data!.view;
    const admin2 = await srv.addMember(apiKey.token, "admin");
    const other = srv.client(admin2.token);
    const edit = await other.PATCH("/views/{id}", {
      params: { path: { id: view.id } },
      body: { name: "Taken" },
    });
    expect(edit.response.status).toBe(404);
    expect(edit.error!.code).toBe("not_found");
    const del = await other.DELETE("/views/{id}", { params: { path: { id: view.id } } });
    expect(del.response.status).toBe(404);
    expect((await api.GET("/views")).data!.views).toEqual([view]);

    const mine = await api.DELETE("/views/{id}", { params: { path: { id: view.id } } });
    expect(mine.data).toEqual({ ok: true });
    expect((await api.GET("/views")).data!.views).toEqual([]);
    const gone = await api.DELETE("/views/{id}", { params: { path: { id: view.id } } });
    expect(gone.response.status).toBe(404);
    const junk = await api.DELETE("/views/{id}", { params: { path: { id: "junk" } } });
    expect(junk.response.status).toBe(404);
    const missing = await api.PATCH("/views/{id}", { params: { path: { id: randomUUID() } }, body: {} });
    expect(missing.response.status).toBe(404);
  });
});

describe("view defaults", () => {
  it("merges the caller's own defaults over the workspace baselines, per view key", async () => {
    const { api, apiKey, changes } = await setup();
    const baseline = await api.PUT("/view-defaults", {
      body: { viewKey: "issues:team:ENG", scope: "workspace", display: "board", hidden: ["Canceled"] },
    });
    expect(baseline.data!.default).toEqual({
      viewKey: "issues:team:ENG",
      scope: "workspace",
      filters: {},
      sort: null,
      display: "board",
      grouping: null,
      hidden: ["Canceled"],
    });
    await api.PUT("/view-defaults", {
      body: { viewKey: "my-issues", scope: "workspace", sort: "-priority" },
    });

    const member = await srv.addMember(apiKey.token, "member");
    const m = srv.client(member.token);
    const own = await m.PUT("/view-defaults", {
      body: { viewKey: "issues:team:ENG", filters: { special: ["mine"] }, grouping: "priority" },
    });
    expect(own.data!.default).toMatchObject({ scope: "user", display: null, grouping: "priority" });

    const seen = await m.GET("/view-defaults");
    expect(seen.data!.defaults).toEqual([
      {
        viewKey: "issues:team:ENG",
        scope: "user",
        filters: { special: ["mine"] },
        sort: null,
        display: null,
        grouping: "priority",
        hidden: [],
      },
      {
        viewKey: "my-issues",
        scope: "workspace",
        filters: {},
        sort: "-priority",
        display: null,
        grouping: null,
        hidden: [],
      },
    ]);
    // The admin did not override anything: they see the baselines.
    const adminSees = await api.GET("/view-defaults", { params: { query: { viewKey: "issues:team:ENG" } } });
    expect(adminSees.data!.defaults).toEqual([baseline.data!.default]);
    expect(
      (await m.GET("/view-defaults", { params: { query: { viewKey: "nothing" } } })).data!.defaults,
    ).toEqual([]);
    expect((await changes("view_default")).map((c) => c.action)).toEqual(["created", "created", "created"]);
  });

  it("replaces the whole entry on a second put", async () => {
    const { api, changes } = await setup();
    await api.PUT("/view-defaults", {
      body: { viewKey: "board", display: "board", grouping: "label", hidden: ["Done"], sort: "title" },
    });
    const again = await api.PUT("/view-defaults", { body: { viewKey: "board", display: "list" } });
    expect(again.data!.default).toEqual({
      viewKey: "board",
      scope: "user",
      filters: {},
      sort: null,
      display: "list",
      grouping: null,
      hidden: [],
    });
    expect((await api.GET("/view-defaults")).data!.defaults).toEqual([again.data!.default]);
    expect((await changes("view_default")).map((c) => c.action)).toEqual(["created", "updated"]);
  });

  it("keeps workspace baselines admin only, storing nothing for others", async () => {
    const { api, apiKey, workspace } = await setup();
    const member = srv.client((await srv.addMember(apiKey.token, "member")).token);
    const put = await member.PUT("/view-defaults", {
      body: { viewKey: "k", scope: "workspace", display: "board" },
    });
    expect(put.response.status).toBe(403);
    expect(put.error!.code).toBe("admin_required");
    expect(await srv.query("select 1 from view_defaults where workspace_id = $1", [workspace.id])).toEqual(
      [],
    );

    await api.PUT("/view-defaults", { body: { viewKey: "k", scope: "workspace", display: "board" } });
    const del = await member.DELETE("/view-defaults", {
      params: { query: { viewKey: "k", scope: "workspace" } },
    });
    expect(del.response.status).toBe(403);
    expect(del.error!.code).toBe("admin_required");
    expect(
      await srv.query("select 1 from view_defaults where workspace_id = $1", [workspace.id]),
    ).toHaveLength(1);
  });

  it("deletes per scope; the baseline applies again after the caller's override is removed", async () => {
    const { api } = await setup();
    await api.PUT("/view-defaults", { body: { viewKey: "k", scope: "workspace", display: "board" } });
    await api.PUT("/view-defaults", { body: { viewKey: "k", display: "timeline" } });
    expect((await api.GET("/view-defaults")).data!.defaults[0]).toMatchObject({
      scope: "user",
      display: "timeline",
    });

    const mine = await api.DELETE("/view-defaults", { params: { query: { viewKey: "k" } } });
    expect(mine.data).toEqual({ ok: true });
    expect((await api.GET("/view-defaults")).data!.defaults[0]).toMatchObject({
      scope: "workspace",
      display: "board",
    });
    const again = await api.DELETE("/view-defaults", { params: { query: { viewKey: "k", scope: "user" } } });
    expect(again.response.status).toBe(404);
    expect(again.error!.code).toBe("not_found");

    const base = await api.DELETE("/view-defaults", {
      params: { query: { viewKey: "k", scope: "workspace" } },
    });
    expect(base.data).toEqual({ ok: true });
    expect((await api.GET("/view-defaults")).data!.defaults).toEqual([]);
  });
});
