import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { operations } from "@tracker/sdk/schema";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, useTestServer } from "../../../test/harness.js";
import { insertTeam } from "../../teams/team.service.js";
import { issueFieldsOf } from "../issue-fixtures.js";

type ListQuery = NonNullable<operations["listIssues"]["parameters"]["query"]>;

const srv = useTestServer();
let admin: ApiClient;
let member: ApiClient;
let guest: ApiClient;
let other: ApiClient;
const ids: Record<string, string> = {};
const users: Record<string, string> = {};
let wsId = "";

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** A calendar date `days` from today (UTC), as the server counts. */
const day = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

interface Fixture {
  title: string;
  description?: string | null;
  state: string;
  priority?: number;
  estimate?: number | null;
  due?: number | null;
  assignee?: string | null;
  creator?: string | null;
  project?: string | null;
  cycle?: string | null;
  createdAgo?: number;
  updatedAgo?: number;
  /** Exact instants (PostgreSQL text, microseconds kept), instead of `createdAgo` / `updatedAgo` / now. */
  createdAt?: string;
  updatedAt?: string;
  completedAt?: string;
  labels?: string[];
}

const teams: Record<
  string,
  { id: string; counter: number; states: Record<string, { id: string; type: string }> }
> = {};

async function addTeam(workspaceId: string, key: string, creatorId: string, personal = false) {
  const team = await insertTeam(
    srv.running.orm.em.fork() as unknown as EntityManager,
    workspaceId,
    { key, name: `Team ${key}`, personal, ownerId: personal ? creatorId : null },
    creatorId,
  );
  await registerTeam(key, team.id);
  return team.id;
}

async function registerTeam(key: string, id: string) {
  const states = await srv.query<{ id: string; name: string; type: string }>(
    "select id, name, type from workflow_states where team_id = $1",
    [id],
  );
  teams[key] = { id, counter: 0, states: Object.fromEntries(states.map((s) => [s.name, s])) };
}

const labelIds: Record<string, string> = {};
async function label(workspaceId: string, name: string) {
  const key = `${workspaceId}:${name.toLowerCase()}`;
  if (!labelIds[key]) {
    labelIds[key] = randomUUID();
    await srv.query(
      "insert into labels (id, workspace_id, name, color, created_at, updated_at) values ($1, $2, $3, '#000000', now(), now())",
      [labelIds[key], workspaceId, name],
    );
  }
  return labelIds[key]!;
}

/** Inserts an issue directly, to control timestamps, dates and states. Returns its identifier. */
async function issue(workspaceId: string, teamKey: string, f: Fixture): Promise<string> {
  const team = teams[teamKey]!;
  const state = team.states[f.state]!;
  const number = ++team.counter;
  const id = randomUUID();
  const finished = state.type === "completed" || state.type === "canceled";
  await srv.query(
    `insert into issues (id, workspace_id, team_id, number, title, description, priority, estimate, due_date,
                         state_id, state_type, assignee_id, creator_id, project_id, cycle_id,
                         created_at, updated_at, completed_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
    [
      id,
      workspaceId,
      team.id,
      number,
      f.title,
      f.description ?? null,
      f.priority ?? 0,
      f.estimate ?? null,
      f.due == null ? null : day(f.due),
      state.id,
      state.type,
      f.assignee ?? null,
      f.creator ?? null,
      f.project ?? null,
      f.cycle ?? null,
      f.createdAt ?? new Date(Date.now() - (f.createdAgo ?? 30 * DAY)),
      f.updatedAt ?? new Date(Date.now() - (f.updatedAgo ?? 0)),
      finished ? (f.completedAt ?? new Date()) : null,
    ],
  );
  for (const name of f.labels ?? [])
    await srv.query("insert into issue_labels (issue_id, label_id) values ($1, $2)", [
      id,
      await label(workspaceId, name),
    ]);
  const identifier = `${teamKey}-${number}`;
  ids[identifier] = id;
  return identifier;
}

async function blocks(blocker: string, blocked: string, type = "blocks") {
  await srv.query(
    `insert into issue_relations (id, workspace_id, type, issue_id, related_issue_id, created_at)
     values ($1, $2, $3, $4, $5, now())`,
    [randomUUID(), wsId, type, ids[blocker], ids[blocked]],
  );
}

async function list(client: ApiClient, query: ListQuery) {
  const res = await client.GET("/issues", { params: { query } });
  if (!res.data) throw new Error(`listIssues failed: ${res.response.status} ${JSON.stringify(res.error)}`);
  return res.data;
}
/** Identifiers in the order the server returned them. */
const order = async (query: ListQuery, client = admin) =>
  (await list(client, query)).issues.map((i) => i.identifier);
/** Identifiers as a sorted set, for filters whose order does not matter. */
const set = async (query: ListQuery, client = admin) => (await order(query, client)).sort();

let projectId = "";
let cycle1 = "";

beforeAll(async () => {
  const boot = await srv.bootstrap({ name: "Carol", team: { key: "ENG", name: "Engineering" } });
  wsId = boot.workspace.id;
  admin = srv.client(boot.apiKey.token);
  users.carol = boot.user.id;
  await registerTeam("ENG", boot.team!.id);
  const alice = await srv.addMember(boot.apiKey.token, "member", "alice@example.com");
  const bob = await srv.addMember(boot.apiKey.token, "member", "bob@example.com");
  const gus = await srv.addMember(boot.apiKey.token, "guest", "gus@example.com");
  users.alice = alice.userId;
  users.bob = bob.userId;
  member = srv.client(alice.token);
  guest = srv.client(gus.token);

  await addTeam(wsId, "OPS", users.carol);
  await addTeam(wsId, "SRT", users.carol);
  await addTeam(wsId, "ALI", users.alice, true); // Alice's personal space
  await srv.query("insert into team_members (id, team_id, user_id, created_at) values ($1, $2, $3, now())", [
    randomUUID(),
    teams.OPS!.id,
    gus.userId,
  ]);

  projectId = randomUUID();
  await srv.query(
    "insert into projects (id, workspace_id, name, status, created_at, updated_at) values ($1, $2, 'Apollo', 'started', now(), now())",
    [projectId, wsId],
  );
  cycle1 = randomUUID();
  const cycle2 = randomUUID();
  await srv.query(
    `insert into cycles (id, team_id, number, name, starts_at, ends_at, created_at) values
       ($1, $3, 1, null, now() - interval '20 days', now() - interval '6 days', now()),
       ($2, $3, 2, null, now() - interval '6 days', now() + interval '8 days', now())`,
    [cycle1, cycle2, teams.ENG!.id],
  );

  const { carol, alice: a } = users;
  // ENG-1
  await issue(wsId, "ENG", {
    title: "Login page crashes on submit",
    description: "Users see a blank page after pressing submit?",
    state: "Todo",
    due: -2,
    assignee: carol,
    creator: a,
    project: projectId,
    cycle: cycle2,
    estimate: 1,
    labels: ["bug", "Frontend"],
  });
  // ENG-2: finished long ago, due in the past: neither overdue nor stale
  await issue(wsId, "ENG", {
    title: "Crash report export",
    description: "Export crash reports as CSV.",
    state: "Done",
    due: -5,
    updatedAgo: 30 * DAY,
    assignee: a,
    estimate: 2,
    labels: ["bug"],
  });
  // ENG-3
  await issue(wsId, "ENG", {
    title: "Write onboarding docs",
    description: "Document the login flow for new users.",
    state: "In Progress",
    due: 0,
    updatedAgo: 20 * DAY,
    assignee: a,
    creator: carol,
    estimate: 3,
    project: projectId,
    cycle: cycle1,
    labels: ["docs"],
  });
  // ENG-4
  await issue(wsId, "ENG", { title: "Database migration tool", state: "Backlog", due: 6, assignee: a });
  // ENG-5
  await issue(wsId, "ENG", {
    title: "Improve search performance",
    state: "In Progress",
    due: 7,
    updatedAgo: 13 * DAY,
    assignee: a,
    estimate: 8,
    creator: carol,
  });
  // ENG-6: canceled, old, past due
  await issue(wsId, "ENG", {
    title: "Canceled old idea",
    state: "Canceled",
    due: -10,
    updatedAgo: 40 * DAY,
    assignee: a,
    estimate: 1,
  });
  // ENG-7
  await issue(wsId, "ENG", { title: "Stale backlog item", state: "Backlog", due: -1, updatedAgo: 15 * DAY });
  // ENG-8
  await issue(wsId, "ENG", {
    title: "Half done refactor",
    state: "In Review",
    due: -4,
    assignee: a,
    estimate: 2,
  });
  // ENG-9: done today, due today
  await issue(wsId, "ENG", { title: "Shipped today", state: "Done", due: 0, assignee: a, estimate: 1 });
  // ENG-10
  await issue(wsId, "ENG", { title: "Refine colour palette", state: "Todo" });

  await blocks("ENG-5", "ENG-4"); // open blocker: ENG-4 is blocked, ENG-5 is blocking
  await blocks("ENG-2", "ENG-5"); // finished blocker: ENG-5 is not blocked; ENG-2 blocks an open issue
  await blocks("ENG-6", "ENG-1"); // canceled blocker: ENG-1 is not blocked
  await blocks("ENG-9", "ENG-6"); // blocks a canceled issue: ENG-9 is not blocking
  await blocks("ENG-8", "ENG-7", "related"); // not a blocking relation

  await issue(wsId, "OPS", { title: "Rotate certificates", state: "Todo", labels: ["ops"] });
  await issue(wsId, "ALI", { title: "Private login notes", state: "Todo", creator: a });

  // SRT: one issue per sort value, with ties and missing values.
  const h = HOUR;
  const srt: Fixture[] = [
    {
      title: "banana",
      priority: 3,
      due: 5,
      createdAgo: 10 * DAY,
      updatedAgo: 1 * h,
      estimate: 2,
      state: "In Progress",
      assignee: users.bob,
    },
    { title: "Apple", priority: 0, due: null, createdAgo: 9 * DAY, updatedAgo: 2 * h, state: "Todo" },
    {
      title: "cherry",
      priority: 1,
      due: -3,
      createdAgo: 8 * DAY,
      updatedAgo: 3 * h,
      estimate: 5,
      state: "Backlog",
      assignee: a,
    },
    {
      title: "date",
      priority: 4,
      due: 1,
      createdAgo: 7 * DAY,
      updatedAgo: 4 * h,
      estimate: 0,
      state: "Done",
      assignee: carol,
    },
    {
      title: "Elder",
      priority: 3,
      due: 1,
      createdAgo: 6 * DAY,
      updatedAgo: 5 * h,
      estimate: 2,
      state: "In Review",
      assignee: a,
    },
    { title: "fig", priority: 2, due: null, createdAgo: 5 * DAY, updatedAgo: 6 * h, state: "Canceled" },
  ];
  for (const f of srt) await issue(wsId, "SRT", f);

  // Another workspace, with a team of the same key and a matching issue.
  const boot2 = await srv.bootstrap({ team: { key: "ENG", name: "Elsewhere" } });
  other = srv.client(boot2.apiKey.token);
  users.outsider = boot2.user.id;
  const otherTeam = { ...teams };
  await registerTeam("ENG", boot2.team!.id);
  await issue(boot2.workspace.id, "ENG", { title: "Login page crashes elsewhere", state: "Todo", due: -3 });
  teams.ENG = otherTeam.ENG!;
});

describe("listIssues filters", () => {
  it("lists every visible issue, newest update first, in the contract's shape", async () => {
    const page = await list(admin, { limit: 200 });
    const got = page.issues.map((i) => i.identifier);
    expect(got).toHaveLength(17); // 10 ENG + 1 OPS + 6 SRT; not Alice's personal space, not the other workspace
    expect(got).not.toContain("ALI-1");
    expect(page.nextOffset).toBeNull();
    const updated = page.issues.map((i) => i.updatedAt);
    expect([...updated].sort().reverse()).toEqual(updated);
    const eng1 = page.issues.find((i) => i.identifier === "ENG-1")!;
    expect(eng1).toMatchObject({
      title: "Login page crashes on submit",
      team: { key: "ENG" },
      state: { name: "Todo", type: "unstarted" },
      assignee: { id: users.carol, name: "Carol" },
      project: { id: projectId, name: "Apollo" },
      cycle: { number: 2 },
      labels: ["bug", "Frontend"],
      dueDate: day(-2),
    });
  });

  it("filters by team key or id; a team naming nothing or hidden from the caller is 404", async () => {
    expect(await set({ team: "OPS" })).toEqual(["OPS-1"]);
    expect(await set({ team: teams.OPS!.id })).toEqual(["OPS-1"]);
    for (const team of ["NOPE", "ALI", "eng"]) {
      const res = await admin.GET("/issues", { params: { query: { team } } });
      expect(res.response.status).toBe(404);
      expect(res.error?.code).toBe("not_found");
    }
    expect(await set({ team: "ALI" }, member)).toEqual(["ALI-1"]);
  });

  it("filters by state name (case-insensitive) of the team; state without team or unknown is 400", async () => {
    expect(await set({ team: "ENG", state: "todo" })).toEqual(["ENG-1", "ENG-10"]);
    expect(await set({ team: "ENG", state: "In Progress" })).toEqual(["ENG-3", "ENG-5"]);
    expect(await set({ team: "OPS", state: "Done" })).toEqual([]);
    for (const query of [{ state: "Todo" }, { team: "ENG", state: "Nope" }] as ListQuery[]) {
      const res = await admin.GET("/issues", { params: { query } });
      expect(res.response.status).toBe(400);
      expect(res.error?.code).toBe("invalid_request");
    }
    const res = await admin.GET("/issues", { params: { query: { state: "Todo" } } });
    expect(res.error?.detail).toMatch(/team/);
  });

  it("filters by state types, any of them", async () => {
    expect(await set({ team: "ENG", stateType: ["completed", "canceled"] })).toEqual([
      "ENG-2",
      "ENG-6",
      "ENG-9",
    ]);
    expect(await set({ team: "ENG", stateType: ["backlog"] })).toEqual(["ENG-4", "ENG-7"]);
    const res = await admin.GET("/issues", { params: { query: { stateType: ["done" as never] } } });
    expect(res.response.status).toBe(400);
  });

  it("filters by assignee email, id or me; unknown assignee is 404", async () => {
    expect(await set({ assignee: "me" })).toEqual(["ENG-1", "SRT-4"]);
    expect(await set({ assignee: "BOB@example.com" })).toEqual(["SRT-1"]);
    expect(await set({ assignee: users.bob })).toEqual(["SRT-1"]);
    expect(await set({ assignee: "me" }, member)).toEqual(
      ["ENG-2", "ENG-3", "ENG-4", "ENG-5", "ENG-6", "ENG-8", "ENG-9", "SRT-3", "SRT-5"].sort(),
    );
    for (const assignee of ["nobody@example.com", users.outsider!]) {
      const res = await admin.GET("/issues", { params: { query: { assignee } } });
      expect(res.response.status).toBe(404);
      expect(res.error?.code).toBe("not_found");
    }
    // A valid reference with nothing to list is an empty page, not an error.
    expect(await set({ assignee: "gus@example.com" })).toEqual([]);
  });

  it("filters by project name or id; unknown project is 404", async () => {
    expect(await set({ project: "apollo" })).toEqual(["ENG-1", "ENG-3"]);
    expect(await set({ project: projectId })).toEqual(["ENG-1", "ENG-3"]);
    const res = await admin.GET("/issues", { params: { query: { project: "Zeus" } } });
    expect(res.response.status).toBe(404);
  });

  it("filters by cycle number or current of the team; without team or unknown is 400", async () => {
    expect(await set({ team: "ENG", cycle: "current" })).toEqual(["ENG-1"]);
    expect(await set({ team: "ENG", cycle: 1 })).toEqual(["ENG-3"]);
    for (const query of [{ cycle: 1 }, { cycle: "current" }, { team: "ENG", cycle: 9 }] as ListQuery[]) {
      const res = await admin.GET("/issues", { params: { query } });
      expect(res.response.status).toBe(400);
      expect(res.error?.code).toBe("invalid_request");
    }
    const noCurrent = await admin.GET("/issues", { params: { query: { team: "OPS", cycle: "current" } } });
    expect(noCurrent.response.status).toBe(400);
  });

  it("filters by labels: every named label must be present, names case-insensitive", async () => {
    expect(await set({ label: ["bug"] })).toEqual(["ENG-1", "ENG-2"]);
    expect(await set({ label: ["BUG", "frontend"] })).toEqual(["ENG-1"]);
    expect(await set({ label: ["bug", "docs"] })).toEqual([]);
    expect(await set({ label: ["no-such-label"] })).toEqual([]);
  });

  it("filters by labels: a repeated name counts once, an unknown one among known ones matches nothing", async () => {
    expect(await set({ label: ["bug", "BUG"] })).toEqual(["ENG-1", "ENG-2"]);
    expect(await set({ label: ["bug", "frontend", "Bug"] })).toEqual(["ENG-1"]);
    expect(await set({ label: ["bug", "no-such-label"] })).toEqual([]);
    expect(await set({ label: ["frontend"], special: ["overdue"] })).toEqual(["ENG-1"]);
  });

  it("filters by the labels' names as they are now, also right after they change elsewhere", async () => {
    // The server resolves label names through its cache of the workspace's names; these renames go
    // straight to the database, as another server would write them.
    expect(await set({ label: ["bug"] })).toEqual(["ENG-1", "ENG-2"]);
    const rename = async (...pairs: [string, string][]) => {
      for (const [from, to] of pairs)
        await srv.query("update labels set name = $3 where workspace_id = $1 and name = $2", [
          wsId,
          from,
          to,
        ]);
    };
    // "bug" and "docs" swap names.
    await rename(["bug", "swapping"], ["docs", "bug"], ["swapping", "docs"]);
    try {
      expect(await set({ label: ["bug"] })).toEqual(["ENG-3"]);
      expect(await set({ label: ["docs"] })).toEqual(["ENG-1", "ENG-2"]);
      expect(await set({ label: ["docs", "Frontend"] })).toEqual(["ENG-1"]);
      await rename(["docs", "defect"]);
      expect(await set({ label: ["docs"] })).toEqual([]);
      expect(await set({ label: ["defect"] })).toEqual(["ENG-1", "ENG-2"]);
    } finally {
      await rename(["defect", "docs"], ["bug", "swapping"], ["docs", "bug"], ["swapping", "docs"]);
    }
    expect(await set({ label: ["bug"] })).toEqual(["ENG-1", "ENG-2"]);
    expect(await set({ label: ["docs"] })).toEqual(["ENG-3"]);
  });

  it("filters by a label whose name is not ASCII", async () => {
    await srv.query(
      "insert into issue_labels (issue_id, label_id) select i.id, $1 from issues i where i.team_id = $2 and i.number = 4",
      [await label(wsId, "Überprüfung"), teams.ENG!.id],
    );
    try {
      expect(await set({ label: ["Überprüfung"] })).toEqual(["ENG-4"]);
      expect(await set({ label: ["bug"] })).toEqual(["ENG-1", "ENG-2"]);
    } finally {
      await srv.query("delete from labels where workspace_id = $1 and name = 'Überprüfung'", [wsId]);
    }
    expect(await set({ label: ["Überprüfung"] })).toEqual([]);
  });

  it("searches full text with websearch syntax: words, quotes, -word, or, an identifier", async () => {
    expect(await set({ q: "crash" })).toEqual(["ENG-1", "ENG-2"]);
    expect(await set({ q: "login" })).toEqual(["ENG-1", "ENG-3"]);
    expect(await set({ q: '"login page"' })).toEqual(["ENG-1"]);
    expect(await set({ q: "crash -export" })).toEqual(["ENG-1"]);
    expect(await set({ q: "docs or performance" })).toEqual(["ENG-3", "ENG-5"]);
    expect(await set({ q: "ENG-5" })).toEqual(["ENG-5"]);
    expect(await set({ q: "submit?" })).toEqual(["ENG-1"]);
    expect(await set({ q: "it's 'quoted' \\ text" })).toEqual([]);
    expect(await set({ q: "login" }, member)).toEqual(["ALI-1", "ENG-1", "ENG-3"]);
    expect(await set({ q: "crash", team: "ENG", stateType: ["unstarted"] })).toEqual(["ENG-1"]);
  });
});

describe("listIssues special filters", () => {
  const special = (s: ListQuery["special"], extra: ListQuery = {}) =>
    set({ team: "ENG", special: s, ...extra });

  it("overdue: open and due before today; finished work is never overdue", async () => {
    expect(await special(["overdue"])).toEqual(["ENG-1", "ENG-7", "ENG-8"]);
  });
  it("unstarted_overdue: overdue in a backlog or unstarted state", async () => {
    expect(await special(["unstarted_overdue"])).toEqual(["ENG-1", "ENG-7"]);
  });
  it("due_today and due_week (today..today+6), open only", async () => {
    expect(await special(["due_today"])).toEqual(["ENG-3"]);
    expect(await special(["due_week"])).toEqual(["ENG-3", "ENG-4"]);
  });
  it("no_due_date, unassigned, no_estimate, no_project, no_labels", async () => {
    expect(await special(["no_due_date"])).toEqual(["ENG-10"]);
    expect(await special(["unassigned"])).toEqual(["ENG-10", "ENG-7"]);
    expect(await special(["no_estimate"])).toEqual(["ENG-10", "ENG-4", "ENG-7"]);
    expect(await special(["no_project"])).toHaveLength(8);
    expect(await special(["no_labels"])).toEqual([
      "ENG-10",
      "ENG-4",
      "ENG-5",
      "ENG-6",
      "ENG-7",
      "ENG-8",
      "ENG-9",
    ]);
  });
  it("stale: open and not updated for 14 days; finished work is never stale", async () => {
    expect(await special(["stale"])).toEqual(["ENG-3", "ENG-7"]);
  });
  it("blocked counts only open blockers; blocking means blocking an open issue", async () => {
    expect(await special(["blocked"])).toEqual(["ENG-4"]);
    expect(await special(["blocking"])).toEqual(["ENG-2", "ENG-5", "ENG-6"]);
  });
  it("mine and created_by_me follow the key's owner", async () => {
    expect(await special(["mine"])).toEqual(["ENG-1"]);
    expect(await special(["created_by_me"])).toEqual(["ENG-3", "ENG-5"]);
    expect(await set({ special: ["created_by_me"] }, member)).toEqual(["ALI-1", "ENG-1"]);
  });
  it("subscribed: what the key's owner follows, by creating, being assigned or subscribing", async () => {
    // The fixture's issues were all filed by the admin through the API: they follow every one.
    expect(await special(["subscribed"])).toEqual(expect.arrayContaining(["ENG-1", "ENG-3", "ENG-5"]));
    const on = { params: { path: { identifier: "ENG-2" } } };
    const memberFollows = () => set({ team: "ENG", special: ["subscribed"] }, member);
    const before = (await memberFollows()).includes("ENG-2");
    try {
      await member.DELETE("/issues/{identifier}/subscription", on);
      expect(await memberFollows()).not.toContain("ENG-2");
      await member.PUT("/issues/{identifier}/subscription", on);
      expect(await memberFollows()).toContain("ENG-2");
      // Each person's subscriptions are their own: the admin's list did not change with the member's.
      await admin.DELETE("/issues/{identifier}/subscription", on);
      expect(await memberFollows()).toContain("ENG-2");
      expect(await special(["subscribed"])).not.toContain("ENG-2");
    } finally {
      await admin.PUT("/issues/{identifier}/subscription", on);
      if (!before) await member.DELETE("/issues/{identifier}/subscription", on);
    }
  });
  it("ANDs specials with each other and with the other filters", async () => {
    expect(await special(["overdue", "mine"])).toEqual(["ENG-1"]);
    expect(await special(["overdue", "unassigned"])).toEqual(["ENG-7"]);
    expect(await special(["stale", "blocked"])).toEqual([]);
    expect(await special(["overdue"], { label: ["bug"] })).toEqual(["ENG-1"]);
    expect(await set({ special: ["overdue"] })).toEqual(["ENG-1", "ENG-7", "ENG-8", "SRT-3"]);
  });
});

describe("listIssues sorting", () => {
  // Ascending orders of the SRT fixture; descending must be the exact reverse (missing values first).
  const ascending: Record<string, number[]> = {
    priority: [3, 6, 1, 5, 4, 2], // urgent first, "none" (0) last
    due: [3, 4, 5, 1, 2, 6], // ties by number, no due date last
    created: [1, 2, 3, 4, 5, 6],
    updated: [6, 5, 4, 3, 2, 1],
    title: [2, 1, 3, 4, 5, 6], // case-insensitive: Apple, banana, cherry, date, Elder, fig
    estimate: [4, 1, 5, 3, 2, 6], // 0 is a value; no estimate last
    state: [3, 2, 1, 5, 4, 6], // Backlog, Todo, In Progress, In Review, Done, Canceled
    assignee: [3, 5, 1, 4, 2, 6], // alice, alice, bob, Carol, unassigned
  };
  for (const [key, asc] of Object.entries(ascending)) {
    it(`sorts by ${key} and -${key}`, async () => {
      const expected = asc.map((n) => `SRT-${n}`);
      expect(await order({ team: "SRT", sort: key as ListQuery["sort"] })).toEqual(expected);
      expect(await order({ team: "SRT", sort: `-${key}` as ListQuery["sort"] })).toEqual(
        [...expected].reverse(),
      );
    });
  }

  it("defaults to -updated", async () => {
    expect(await order({ team: "SRT" })).toEqual(["SRT-1", "SRT-2", "SRT-3", "SRT-4", "SRT-5", "SRT-6"]);
  });

  it("refuses an unknown sort key", async () => {
    const res = await admin.GET("/issues", { params: { query: { sort: "color" as never } } });
    expect(res.response.status).toBe(400);
  });
});

describe("listIssues paging", () => {
  it("pages with limit and offset; nextOffset is null on the last page", async () => {
    const first = await list(admin, { team: "SRT", sort: "created", limit: 4 });
    expect(first.issues.map((i) => i.identifier)).toEqual(["SRT-1", "SRT-2", "SRT-3", "SRT-4"]);
    expect(first.nextOffset).toBe(4);
    const second = await list(admin, { team: "SRT", sort: "created", limit: 4, offset: first.nextOffset! });
    expect(second.issues.map((i) => i.identifier)).toEqual(["SRT-5", "SRT-6"]);
    expect(second.nextOffset).toBeNull();
    const exact = await list(admin, { team: "SRT", sort: "created", limit: 3, offset: 3 });
    expect(exact.issues).toHaveLength(3);
    expect(exact.nextOffset).toBeNull();
    const past = await list(admin, { team: "SRT", limit: 3, offset: 50 });
    expect(past).toEqual({ issues: [], nextOffset: null, nextCursor: null });
  });

  it("pages through ties stably under a low-cardinality sort", async () => {
    const all = await order({ sort: "priority", limit: 200 });
    const paged: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = await list(admin, { sort: "priority", limit: 5, offset });
      paged.push(...page.issues.map((i) => i.identifier));
      offset = page.nextOffset;
    }
    expect(paged).toEqual(all);
  });

  it("defaults to 50 and refuses more than 200", async () => {
    const res = await admin.GET("/issues", { params: { query: { limit: 201 } } });
    expect(res.response.status).toBe(400);
    expect(res.error?.code).toBe("invalid_request");
    const zero = await admin.GET("/issues", { params: { query: { limit: 0 } } });
    expect(zero.response.status).toBe(400);
  });
});

describe("listIssues time windows", () => {
  // A workspace of its own, so the other tests' counts stay as they are. Instants are exact, to the
  // microsecond, one either side of each bound the tests use.
  let win: ApiClient;
  let winToken = "";
  const titles: Record<string, string> = {};
  beforeAll(async () => {
    const boot = await srv.bootstrap({ team: { key: "WIN", name: "Windows" } });
    winToken = boot.apiKey.token;
    win = srv.client(winToken);
    await registerTeam("WIN", boot.team!.id);
    await addTeam(boot.workspace.id, "WOT", boot.user.id);
    const ws = boot.workspace.id;
    const add = async (team: string, f: Fixture) => {
      const identifier = await issue(ws, team, f);
      titles[identifier] = f.title;
    };
    // WIN-1: created exactly at the start of 2026-01-10, open.
    await add("WIN", {
      title: "quartz alpha",
      state: "Todo",
      priority: 2,
      createdAt: "2026-01-10T00:00:00Z",
      updatedAt: "2026-03-01T12:00:00Z",
    });
    // WIN-2: a microsecond before each of WIN-1's instants; completed exactly at the start of 2026-02-01.
    await add("WIN", {
      title: "quartz beta",
      state: "Done",
      priority: 1,
      createdAt: "2026-01-09T23:59:59.999999Z",
      updatedAt: "2026-03-01T11:59:59.999999Z",
      completedAt: "2026-02-01T00:00:00Z",
    });
    // WIN-3: completed later.
    await add("WIN", {
      title: "gamma",
      state: "Done",
      priority: 3,
      createdAt: "2026-01-10T10:00:00Z",
      updatedAt: "2026-02-15T00:00:00Z",
      completedAt: "2026-02-15T00:00:00Z",
    });
    // WIN-4: canceled a microsecond before 2026-02-01; created exactly at the start of 2026-01-11.
    await add("WIN", {
      title: "quartz delta",
      state: "Canceled",
      priority: 4,
      createdAt: "2026-01-11T00:00:00Z",
      updatedAt: "2026-01-20T00:00:00Z",
      completedAt: "2026-01-31T23:59:59.999999Z",
    });
    // WIN-5: open, updated last.
    await add("WIN", {
      title: "epsilon",
      state: "In Progress",
      createdAt: "2026-01-12T00:00:00Z",
      updatedAt: "2026-04-01T00:00:00Z",
    });
    // WOT-1: another team, created inside every window above.
    await add("WOT", {
      title: "quartz other team",
      state: "Done",
      createdAt: "2026-01-10T12:00:00Z",
      updatedAt: "2026-03-02T00:00:00Z",
      completedAt: "2026-02-10T00:00:00Z",
    });
  });

  const ids = async (query: ListQuery) => (await order(query, win)).sort();
  const ordered = (query: ListQuery) => order(query, win);

  it("createdAfter is inclusive and createdBefore exclusive, at the exact instant", async () => {
    const all = ["WIN-1", "WIN-2", "WIN-3", "WIN-4", "WIN-5", "WOT-1"];
    expect(await ids({})).toEqual(all);
    expect(await ids({ createdAfter: "2026-01-10T00:00:00Z" })).toEqual([
      "WIN-1",
      "WIN-3",
      "WIN-4",
      "WIN-5",
      "WOT-1",
    ]);
    expect(await ids({ createdBefore: "2026-01-10T00:00:00Z" })).toEqual(["WIN-2"]);
    // A microsecond either side.
    expect(await ids({ createdAfter: "2026-01-09T23:59:59.999999Z" })).toEqual(all);
    expect(await ids({ createdBefore: "2026-01-10T00:00:00.000001Z" })).toEqual(["WIN-1", "WIN-2"]);
    // Consecutive windows share nothing and miss nothing.
    const day10 = await ids({ createdAfter: "2026-01-10", createdBefore: "2026-01-11" });
    const day11 = await ids({ createdAfter: "2026-01-11", createdBefore: "2026-01-12" });
    expect(day10).toEqual(["WIN-1", "WIN-3", "WOT-1"]);
    expect(day11).toEqual(["WIN-4"]);
    expect(await ids({ createdAfter: "2026-01-11", createdBefore: "2026-01-11" })).toEqual([]);
  });

  it("a date is the start of that UTC day; a date-time takes Z or any offset", async () => {
    const fromTenth = await ids({ createdAfter: "2026-01-10" });
    expect(fromTenth).toEqual(await ids({ createdAfter: "2026-01-10T00:00:00Z" }));
    expect(await ids({ createdAfter: "2026-01-10T02:00:00+02:00" })).toEqual(fromTenth);
    expect(await ids({ createdAfter: "2026-01-09T19:00:00-05:00" })).toEqual(fromTenth);
    expect(await ids({ createdAfter: "2026-01-10T00:00:00.000+00:00" })).toEqual(fromTenth);
    // One second later leaves out the issue created at midnight.
    expect(await ids({ createdAfter: "2026-01-10T01:00:01+01:00" })).toEqual([
      "WIN-3",
      "WIN-4",
      "WIN-5",
      "WOT-1",
    ]);
    // Half past midnight on the tenth at +01:00 is still the ninth in UTC, before WIN-2 was created.
    expect(await ids({ createdBefore: "2026-01-10T00:30:00+01:00" })).toEqual([]);
    expect(await ids({ createdBefore: "2026-01-10T01:00:00+01:00" })).toEqual(["WIN-2"]);
  });

  it("updatedAfter is inclusive at the exact instant", async () => {
    expect(await ids({ updatedAfter: "2026-03-01T12:00:00Z" })).toEqual(["WIN-1", "WIN-5", "WOT-1"]);
    expect(await ids({ updatedAfter: "2026-03-01T11:59:59.999999Z" })).toEqual([
      "WIN-1",
      "WIN-2",
      "WIN-5",
      "WOT-1",
    ]);
    expect(await ids({ updatedAfter: "2026-04-01T00:00:00.000001Z" })).toEqual([]);
  });

  it("updatedBefore is exclusive at the exact instant, and with updatedAfter makes consecutive windows", async () => {
    const before = await ids({ updatedBefore: "2026-03-01T12:00:00Z" });
    const after = await ids({ updatedAfter: "2026-03-01T12:00:00Z" });
    expect(before).toContain("WIN-2");
    expect(before.filter((id) => after.includes(id))).toEqual([]);
    expect([...before, ...after].sort()).toEqual([...(await ids({}))].sort());
    // WIN-2 was updated at 11:59:59.999999: a bound at that instant leaves it out.
    expect(await ids({ updatedBefore: "2026-03-01T11:59:59.999999Z" })).not.toContain("WIN-2");
    expect(await ids({ updatedBefore: "2026-03-01T11:59:59.999999Z" })).toEqual(
      before.filter((id) => id !== "WIN-2"),
    );
  });

  it("completed bounds match only issues with a completedAt, completed or canceled", async () => {
    expect(await ids({ completedAfter: "2026-02-01" })).toEqual(["WIN-2", "WIN-3", "WOT-1"]);
    expect(await ids({ completedBefore: "2026-02-01" })).toEqual(["WIN-4"]);
    // Open issues are in no completed window, however wide.
    expect(await ids({ completedAfter: "1970-01-01" })).toEqual(["WIN-2", "WIN-3", "WIN-4", "WOT-1"]);
    expect(await ids({ completedBefore: "2999-01-01" })).toEqual(["WIN-2", "WIN-3", "WIN-4", "WOT-1"]);
    expect(await ids({ completedAfter: "2026-02-01", completedBefore: "2026-02-15T00:00:00Z" })).toEqual([
      "WIN-2",
      "WOT-1",
    ]);
  });

  it("ANDs with team, state, state type, specials and q", async () => {
    expect(await ids({ team: "WIN", createdAfter: "2026-01-10" })).toEqual([
      "WIN-1",
      "WIN-3",
      "WIN-4",
      "WIN-5",
    ]);
    expect(await ids({ team: "WIN", state: "Done", completedAfter: "2026-01-01" })).toEqual([
      "WIN-2",
      "WIN-3",
    ]);
    expect(await ids({ stateType: ["canceled"], completedBefore: "2026-02-01" })).toEqual(["WIN-4"]);
    expect(await ids({ stateType: ["unstarted", "started"], updatedAfter: "2026-03-01" })).toEqual([
      "WIN-1",
      "WIN-5",
    ]);
    expect(await ids({ special: ["no_estimate"], createdBefore: "2026-01-10T00:00:00.000001Z" })).toEqual([
      "WIN-1",
      "WIN-2",
    ]);
    expect(await ids({ q: "quartz", createdAfter: "2026-01-10" })).toEqual(["WIN-1", "WIN-4", "WOT-1"]);
    expect(await ids({ q: "quartz", team: "WIN", completedBefore: "2026-02-01T00:00:00.000001Z" })).toEqual([
      "WIN-2",
      "WIN-4",
    ]);
    expect(await ordered({ q: "quartz", sort: "-updated", updatedAfter: "2026-03-01T12:00:00Z" })).toEqual([
      "WOT-1",
      "WIN-1",
    ]);
  });

  it("works with every sort and pages through the window", async () => {
    const window = { team: "WIN", createdAfter: "2026-01-10" } as const;
    expect(await ordered(window)).toEqual(["WIN-5", "WIN-1", "WIN-3", "WIN-4"]);
    expect(await ordered({ ...window, sort: "created" })).toEqual(["WIN-1", "WIN-3", "WIN-4", "WIN-5"]);
    expect(await ordered({ ...window, sort: "-created" })).toEqual(["WIN-5", "WIN-4", "WIN-3", "WIN-1"]);
    expect(await ordered({ ...window, sort: "priority" })).toEqual(["WIN-1", "WIN-3", "WIN-4", "WIN-5"]);
    expect(await ordered({ ...window, sort: "title" })).toEqual(["WIN-5", "WIN-3", "WIN-1", "WIN-4"]);
    expect(await ordered({ ...window, sort: "state" })).toEqual(["WIN-1", "WIN-5", "WIN-3", "WIN-4"]);
    for (const sort of ["due", "-due", "estimate", "updated", "-title", "assignee", "-state"] as const)
      expect((await ordered({ ...window, sort })).sort()).toEqual(["WIN-1", "WIN-3", "WIN-4", "WIN-5"]);
    const first = await list(win, { ...window, limit: 3 });
    expect(first.issues.map((i) => i.identifier)).toEqual(["WIN-5", "WIN-1", "WIN-3"]);
    expect(first.nextOffset).toBe(3);
    const second = await list(win, { ...window, limit: 3, offset: 3 });
    expect(second.issues.map((i) => i.identifier)).toEqual(["WIN-4"]);
    expect(second.nextOffset).toBeNull();
  });

  it("refuses a malformed bound with 400 invalid_request naming the parameter", async () => {
    const bad = [
      "yesterday",
      "2026-02-30",
      "2026-13-01",
      "2026-1-5",
      "2026-11-01T10:00",
      "2026-11-01T10:00:00",
      "2026-11-01T25:00:00Z",
      "2026-12-31T23:59:60Z",
      "0000-01-01",
      "1730000000",
      "",
    ];
    for (const name of [
      "createdAfter",
      "createdBefore",
      "updatedAfter",
      "updatedBefore",
      "completedAfter",
      "completedBefore",
    ])
      for (const value of bad) {
        const res = await fetch(`${srv.url}/api/v1/issues?${name}=${encodeURIComponent(value)}`, {
          headers: { authorization: `Bearer ${winToken}` },
        });
        const problem = (await res.json()) as { code?: string; errors?: { path: string }[] };
        expect([name, value, res.status, problem.code]).toEqual([name, value, 400, "invalid_request"]);
        expect(problem.errors?.map((e) => e.path)).toContain(`/query/${name}`);
      }
  });

  it("saved views keep the bounds, and running one applies them", async () => {
    const filters = { team: "WIN", createdAfter: "2026-01-10", completedBefore: "2026-02-01T00:00:00Z" };
    const created = await win.POST("/views", { body: { name: "Canceled early", filters } });
    expect(created.response.status).toBe(201);
    const views = (await win.GET("/views")).data!.views;
    const view = views.find((v) => v.id === created.data!.view.id)!;
    expect(view.filters).toEqual(filters);
    // Running a view is listing with its filters as the query (as the CLI and the agent tools do).
    expect(await ids(view.filters as ListQuery)).toEqual(["WIN-4"]);

    for (const [name, value] of [
      ["createdAfter", "2026-02-30"],
      ["updatedAfter", "2026-11-01T10:00:00"],
      ["completedBefore", 20260101],
    ] as const) {
      const res = await win.POST("/views", { body: { name: "Broken", filters: { [name]: value } } });
      expect(res.response.status).toBe(400);
      expect(res.error?.code).toBe("invalid_request");
      expect(res.error?.errors?.map((e) => e.path)).toEqual([`/body/filters/${name}`]);
      const update = await win.PATCH("/views/{id}", {
        params: { path: { id: view.id } },
        body: { filters: { ...filters, [name]: value } },
      });
      expect(update.response.status).toBe(400);
    }
  });
});

describe("listIssues visibility", () => {
  it("shows guests only the teams they belong to", async () => {
    expect(await set({}, guest)).toEqual(["OPS-1"]);
    expect(await set({ q: "login" }, guest)).toEqual([]);
    const res = await guest.GET("/issues", { params: { query: { team: "ENG" } } });
    expect(res.response.status).toBe(404);
  });

  it("never shows another workspace's issues", async () => {
    const mine = await list(admin, { limit: 200 });
    expect(mine.issues.map((i) => i.title)).not.toContain("Login page crashes elsewhere");
    expect(await set({ q: "elsewhere" })).toEqual([]);
    expect(await set({ special: ["overdue"] }, other)).toEqual(["ENG-1"]);
    const theirs = await list(other, {});
    expect(theirs.issues.map((i) => i.title)).toEqual(["Login page crashes elsewhere"]);
  });
});

describe("listIssues rows", () => {
  it("shows each issue exactly as reading it shows it, every character of its text kept", async () => {
    // Text that JSON must escape, and some that it must not touch.
    const title = 'Quote " backslash \\ tab \t newline \n bell \u0007 é 😀 \u2028 </script>';
    const description = '{"not": "json"} \\u0041 \r\n\u001f end';
    // The fixtures numbered their issues themselves: created ones come after them.
    await srv.query("update teams set issue_counter = $2 where id = $1", [teams.ENG!.id, teams.ENG!.counter]);
    const parent = await admin.POST("/issues", { body: { team: "ENG", title: "Parent of the escaped one" } });
    const created = await admin.POST("/issues", {
      body: {
        team: "ENG",
        title,
        description,
        priority: 2,
        estimate: 3,
        dueDate: day(3),
        state: "Done",
        assignee: "me",
        labels: ["Frontend", "bug"],
        cycle: 2,
        parent: parent.data!.issue.identifier,
      },
    });
    expect(created.error).toBeUndefined();

    const page = await list(admin, { limit: 200 });
    const listed = page.issues.find((i) => i.id === created.data!.issue.id)!;
    expect(listed).toMatchObject({
      title,
      description,
      parentId: parent.data!.issue.id,
      labels: ["bug", "Frontend"],
    });
    expect(listed.completedAt).not.toBeNull();
    for (const issue of page.issues) {
      const read = await admin.GET("/issues/{identifier}", {
        params: { path: { identifier: issue.identifier } },
      });
      const fields = issueFieldsOf(read.data!.issue);
      expect(issue).toEqual(fields);
    }
  });
});
