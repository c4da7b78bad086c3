import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { useSession } from "../../test/binary.js";
import { readArchive } from "./archive.js";

// `tracker export`, `tracker import tracker|jira|linear`: the built binary against a real server.
const s = useSession();
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const tmp = mkdtempSync(path.join(os.tmpdir(), "tracker-import-"));

/** A new workspace of the session's admin (an account key reaches it), with team ENG unless `team` is false. */
async function workspace(name: string, team = true) {
  const api = s.server.client(s.token);
  const ws = (await api.POST("/workspaces", { body: { name } })).data!.workspace;
  const headers = { "X-Service-Workspace": ws.slug };
  const client = s.server.client(s.token, headers);
  if (team) await client.POST("/teams", { body: { key: "ENG", name: "Engineering" } });
  return { slug: ws.slug, api: client, env: { TRACKER_WORKSPACE: ws.slug } };
}

const near = (a: string, b: string) => Math.abs(Date.parse(a) - Date.parse(b)) < 1000;

type Api = Awaited<ReturnType<typeof workspace>>["api"];

/** What an import must keep of a workspace, in a form two workspaces can be compared by. */
async function snapshot(api: Api) {
  const issues = (await api.GET("/issues", { params: { query: { archived: "any", limit: 200 } } })).data!
    .issues;
  const byId = new Map(issues.map((i) => [i.id, i.identifier]));
  const out = [];
  for (const i of [...issues].sort((a, b) => a.identifier.localeCompare(b.identifier))) {
    const comments = (
      await api.GET("/issues/{identifier}/comments", { params: { path: { identifier: i.identifier } } })
    ).data!.comments;
    const history = (
      await api.GET("/issues/{identifier}/history", { params: { path: { identifier: i.identifier } } })
    ).data!.events;
    const relations = (
      await api.GET("/issues/{identifier}/relations", { params: { path: { identifier: i.identifier } } })
    ).data!.relations;
    const created = history.find((e) => e.type === "issue_created")!;
    out.push({
      identifier: i.identifier,
      title: i.title,
      description: i.description,
      state: i.state.name,
      priority: i.priority,
      estimate: i.estimate,
      labels: i.labels,
      project: i.project?.name ?? null,
      cycle: i.cycle?.number ?? null,
      assignee: i.assignee ? { name: i.assignee.name, email: i.assignee.email } : null,
      parent: i.parentId ? byId.get(i.parentId) : null,
      dates: [i.createdAt, i.updatedAt, i.completedAt, i.archivedAt],
      // History keeps who and when: an event within the second of what it records (the source's own
      // events are written a few milliseconds after the issue or comment; an import's, at its time).
      created: { by: created.actor?.name, near: near(created.createdAt, i.createdAt) },
      comments: comments.map((c) => [c.body, c.author.email, c.createdAt, c.updatedAt]),
      commentHistory: history
        .filter((e) => e.type === "comment_added")
        .map((e, n) => [e.actor?.name, near(e.createdAt, comments[n]!.createdAt)]),
      archived: history
        .filter((e) => e.type === "issue_archived")
        .map((e) => near(e.createdAt, i.archivedAt!)),
      relations: relations.map((r) => [r.type, r.issue.identifier]).sort(),
    });
  }
  const states = (
    await api.GET("/teams/{key}/workflows", { params: { path: { key: "ENG" } } })
  ).data!.states.map((st) => [st.name, st.type, st.color]);
  const labels = (await api.GET("/labels")).data!.labels.map((l) => [l.name, l.color]).sort();
  const projects = (await api.GET("/projects")).data!.projects.map((p) => [p.name, p.status]).sort();
  const cycles = (await api.GET("/cycles", { params: { query: { team: "ENG" } } })).data!.cycles.map((c) => [
    c.number,
    c.name,
    c.startsAt,
    c.endsAt,
  ]);
  return { issues: out, states: states.sort(), labels, projects, cycles };
}

describe("tracker export and tracker import tracker", () => {
  it("writes the workspace to one archive that imports into an empty workspace as it was, twice alike", async () => {
    const src = await workspace("Source");
    const api = src.api;
    const invite = (await api.POST("/invites", { body: { email: "grace@example.com", role: "member" } }))
      .data!.invite;
    const accepted = await s.server.client().POST("/invites/accept", {
      body: { token: invite.url.split("/").pop()!, name: "Grace Hopper" },
    });
    const member = { email: "grace@example.com", token: accepted.data!.apiKey.token };
    await api.POST("/teams/{key}/states", {
      params: { path: { key: "ENG" } },
      body: { name: "In Review", type: "started", color: "#8b5cf6" },
    });
    await api.POST("/labels", { body: { name: "bug", color: "#ef4444" } });
    await api.POST("/labels", { body: { name: "ux", color: "#22c55e" } });
    await api.PATCH("/teams/{key}", { params: { path: { key: "ENG" } }, body: { cyclesEnabled: true } });
    await api.POST("/cycles", {
      body: {
        team: "ENG",
        name: "January",
        startsAt: "2024-01-01T00:00:00.000Z",
        endsAt: "2024-01-15T00:00:00.000Z",
        rollover: false,
      },
    });
    await api.POST("/projects", { body: { name: "Launch", teams: ["ENG"] } });
    const one = (
      await api.POST("/issues", {
        body: {
          team: "ENG",
          title: "Crash on save",
          description: "It *crashes*.",
          labels: ["bug"],
          project: "Launch",
          cycle: 1,
          priority: 1,
          estimate: 3,
          assignee: member.email,
        },
      })
    ).data!.issue;
    await api.POST("/issues", {
      body: { team: "ENG", title: "Child", parent: one.identifier, state: "Done" },
    });
    await api.POST("/issues", { body: { team: "ENG", title: "Polish", state: "In Review", labels: ["ux"] } });
    await api.POST("/issues/{identifier}/comments", {
      params: { path: { identifier: "ENG-1" } },
      body: { body: "Seen it too." },
    });
    const grace = s.server.client(member.token, { "X-Service-Workspace": src.slug });
    await grace.POST("/issues/{identifier}/comments", {
      params: { path: { identifier: "ENG-1" } },
      body: { body: "Mine." },
    });
    await api.POST("/issues/{identifier}/relations", {
      params: { path: { identifier: "ENG-1" } },
      body: { issue: "ENG-3", type: "blocks" },
    });
    await api.POST("/issues/{identifier}/archive", { params: { path: { identifier: "ENG-3" } } });

    const out = path.join(tmp, "source.tar.gz");
    const exported = await s.run(["export", "--out", out], { env: src.env });
    expect(exported.stderr).toMatch(/^Exported 3 issues, 2 comments and 0 attachments to /);
    expect(exported.code).toBe(0);
    const entries = await readArchive(out);
    const manifest = JSON.parse(entries.get("manifest.json")!.toString("utf8"));
    expect(manifest).toMatchObject({ format: "tracker-export", version: 1, workspace: { slug: src.slug } });
    expect(manifest.counts).toMatchObject({
      "issues.jsonl": 3,
      "comments.jsonl": 2,
      "labels.jsonl": 2,
      "cycles.jsonl": 1,
    });
    expect([...entries.keys()].sort()).toEqual(
      expect.arrayContaining([
        "teams.jsonl",
        "members.jsonl",
        "projects.jsonl",
        "history.jsonl",
        "relations.jsonl",
        "documents.jsonl",
        "updates.jsonl",
      ]),
    );

    const csv = await s.run(["export", "--issues-csv"], { env: src.env });
    expect(csv.stdout.split("\r\n")[0]).toMatch(/^Identifier,Title,Team,State/);
    expect(csv.stdout).toContain("ENG-1,Crash on save,ENG,Backlog");

    const copy = await workspace("Copy", false);
    const imported = await s.run(["import", "tracker", out, "--into", copy.slug]);
    expect(imported.stderr).toContain("3 issues created, 0 updated; 2 comments created, 0 updated");
    expect(imported.code).toBe(0);
    const before = await snapshot(api);
    const after = await snapshot(copy.api);
    expect(after).toEqual(before);

    const again = await s.run(["import", "tracker", out, "--into", copy.slug]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("0 issues created, 3 updated; 0 comments created, 2 updated");
    expect(await snapshot(copy.api)).toEqual(before);
  });
});

describe("tracker import jira", () => {
  it("maps Jira's CSV export: states by category, priorities, types as labels, epics, sprints, sub-tasks, comments", async () => {
    const ws = await workspace("From Jira");
    const args = [
      "import",
      "jira",
      fixture("jira.csv"),
      "--team",
      "ENG",
      "--users",
      fixture("jira-users.json"),
      "--site",
      "https://acme.atlassian.net",
    ];
    const dry = await s.run([...args, "--dry-run"], { env: ws.env });
    expect(dry.stderr).toBe("");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("4 issues into ENG, 2 comments");
    expect(dry.stdout).toContain("projects (epics): Checkout redesign");
    expect(dry.stdout).toContain("cycles (sprints): SHOP Sprint 1, SHOP Sprint 2");
    expect((await ws.api.GET("/issues")).data!.issues).toEqual([]);

    const first = await s.run(args, { env: ws.env });
    expect(first.stderr).toContain("4 issues created, 0 updated; 2 comments created, 0 updated");
    expect(first.code).toBe(0);
    const issues = (await ws.api.GET("/issues", { params: { query: { sort: "created" as never } } })).data!
      .issues;
    const byTitle = new Map(issues.map((i) => [i.title, i]));
    const bug = byTitle.get("Payment fails with expired card")!;
    expect(bug).toMatchObject({
      state: { name: "Done", type: "completed" },
      priority: 1,
      estimate: 3,
      labels: ["Bug", "payments", "regression"],
      project: { name: "Checkout redesign" },
      cycle: { number: 1 },
      assignee: { email: "grace@example.com", name: "Grace Hopper" },
      createdAt: "2023-01-03T10:15:00.000Z",
      updatedAt: "2023-01-20T17:45:00.000Z",
      completedAt: "2023-01-19T15:00:00.000Z",
      dueDate: "2023-01-31",
    });
    expect(bug.description).toContain("The page shows a 500.");
    const story = byTitle.get("Add saved cards")!;
    expect(story).toMatchObject({
      state: { type: "started" },
      priority: 2,
      cycle: { number: 2 },
      labels: ["payments", "Story"],
    });
    expect(byTitle.get("Store card tokens")).toMatchObject({
      state: { name: "Todo" },
      priority: 4,
      parentId: story.id,
    });
    expect(byTitle.get("Old coupon banner")).toMatchObject({
      state: { type: "canceled" },
      priority: 4,
      completedAt: "2023-01-09T18:00:00.000Z",
    });
    const comments = (
      await ws.api.GET("/issues/{identifier}/comments", { params: { path: { identifier: bug.identifier } } })
    ).data!.comments;
    expect(comments.map((c) => [c.author.email, c.createdAt, c.body])).toEqual([
      ["grace@example.com", "2023-01-04T11:20:00.000Z", "I can reproduce it; it fails in the gateway."],
      ["ada@example.com", "2023-01-19T14:55:00.000Z", "Fixed in the new client."],
    ]);
    const history = (
      await ws.api.GET("/issues/{identifier}/history", { params: { path: { identifier: bug.identifier } } })
    ).data!.events;
    expect(history[0]).toMatchObject({
      type: "issue_created",
      actor: { name: "Ada Lovelace" },
      createdAt: "2023-01-03T10:15:00.000Z",
    });
    const cycles = (await ws.api.GET("/cycles", { params: { query: { team: "ENG" } } })).data!.cycles;
    expect(cycles.map((c) => c.name).sort()).toEqual(["SHOP Sprint 1", "SHOP Sprint 2"]);

    const before = await snapshot(ws.api);
    const again = await s.run(args, { env: ws.env });
    expect(again.stderr).toContain("0 issues created, 4 updated; 0 comments created, 2 updated");
    expect(await snapshot(ws.api)).toEqual(before);
  });
});

describe("tracker import linear", () => {
  it("maps Linear's CSV export, and a second run changes nothing", async () => {
    const ws = await workspace("From Linear");
    const args = ["import", "linear", fixture("linear.csv"), "--team", "ENG"];
    const first = await s.run(args, { env: ws.env });
    expect(first.stderr).toContain("4 issues created, 0 updated");
    expect(first.code).toBe(0);
    const issues = (await ws.api.GET("/issues")).data!.issues;
    const byTitle = new Map(issues.map((i) => [i.title, i]));
    const offline = byTitle.get("Offline mode")!;
    expect(offline).toMatchObject({
      state: { name: "In Progress" },
      priority: 2,
      estimate: 5,
      labels: ["Feature", "Mobile"],
      project: { name: "Mobile launch" },
      cycle: { number: 1 },
      assignee: { name: "Grace Hopper", email: "grace-hopper@linear.invalid" },
      dueDate: "2024-03-29",
      createdAt: "2024-03-05T10:15:00.000Z",
      updatedAt: "2024-03-13T16:00:00.000Z",
    });
    expect(byTitle.get("Cache the last feed")).toMatchObject({
      state: { name: "Todo" },
      parentId: offline.id,
    });
    expect(byTitle.get("Crash on rotate")).toMatchObject({
      state: { type: "completed" },
      priority: 1,
      cycle: { number: 2 },
      completedAt: "2024-03-15T17:20:00.000Z",
    });
    expect(byTitle.get("Dark mode icons")).toMatchObject({ state: { type: "canceled" }, priority: 4 });
    const before = await snapshot(ws.api);
    const again = await s.run(args, { env: ws.env });
    expect(again.stderr).toContain("0 issues created, 4 updated");
    expect(await snapshot(ws.api)).toEqual(before);
  });
});
