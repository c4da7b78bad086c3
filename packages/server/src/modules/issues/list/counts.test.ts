import type { components, operations } from "@tracker/sdk/schema";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, testContract, useTestServer } from "../../../test/harness.js";
import { addCycle, addProject } from "../issue-fixtures.js";

type Issue = components["schemas"]["Issue"];
type ListQuery = NonNullable<operations["listIssues"]["parameters"]["query"]>;
type CountQuery = NonNullable<operations["countIssues"]["parameters"]["query"]>;

const srv = useTestServer();
let api: ApiClient;
let memberApi: ApiClient;
let otherApi: ApiClient;
let userId = "";
let memberId = "";
let projectId = "";
let cycleId = "";
const STATES = ["Backlog", "Todo", "In Progress", "In Review", "Done", "Canceled"];

/** Every issue the list gives for `query`, page after page. */
async function listAll(client: ApiClient, query: ListQuery): Promise<Issue[]> {
  const out: Issue[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const res: {
      data?: { issues: Issue[]; nextOffset: number | null };
      response: Response;
      error?: unknown;
    } = await client.GET("/issues", { params: { query: { ...query, limit: 200, offset } } });
    if (!res.data) throw new Error(`list: ${res.response.status} ${JSON.stringify(res.error)}`);
    out.push(...res.data.issues);
    offset = res.data.nextOffset;
  }
  return out;
}

async function counts(client: ApiClient, query: CountQuery) {
  const res = await client.GET("/issues/counts", { params: { query } });
  if (!res.data) throw new Error(`counts: ${res.response.status} ${JSON.stringify(res.error)}`);
  return res.data;
}

/** The groups as a map from key (null as "null") to count. */
const byKey = (groups: { key: string | number | null; count: number }[]) =>
  Object.fromEntries(groups.map((g) => [String(g.key), g.count]));

/** What the list's issues say each group holds, keyed as the counts key them. */
function tally(issues: Issue[], key: (i: Issue) => (string | number | null)[]) {
  const out: Record<string, number> = {};
  for (const issue of issues) for (const k of key(issue)) out[String(k)] = (out[String(k)] ?? 0) + 1;
  return out;
}

beforeAll(async () => {
  const boot = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  api = srv.client(boot.apiKey.token);
  userId = boot.user.id;
  const member = await srv.addMember(boot.apiKey.token, "member");
  memberId = member.userId;
  memberApi = srv.client(member.token);
  const [team] = await srv.query<{ id: string }>("select id from teams where workspace_id = $1", [
    boot.workspace.id,
  ]);
  projectId = await addProject(srv, boot.workspace.id, "Apollo", [team!.id]);
  cycleId = await addCycle(srv, team!.id, 1, true);
  // 230 issues, more than a page of the list: states, people, priorities, labels, project and cycle spread
  // so every group has its own count.
  const items = Array.from({ length: 230 }, (_, n): components["schemas"]["IssueCreate"] => ({
    team: "ENG",
    title: n % 7 === 0 ? `Crash report ${n}` : `Task ${n}`,
    state: STATES[n % STATES.length]!,
    priority: (n % 5) as 0 | 1 | 2 | 3 | 4,
    assignee: n % 3 === 0 ? null : n % 3 === 1 ? "me" : memberId,
    labels: n % 4 === 0 ? [] : n % 4 === 1 ? ["Bug"] : n % 4 === 2 ? ["Bug", "Frontend"] : ["Frontend"],
    ...(n % 2 === 0 ? { project: projectId } : {}),
    ...(n % 5 < 2 ? { cycle: "current" as const } : {}),
  }));
  for (let at = 0; at < items.length; at += 100) {
    const res = await api.POST("/issues/batch", { body: { issues: items.slice(at, at + 100) } });
    if (res.response.status !== 201) throw new Error(`batch: ${JSON.stringify(res.error)}`);
  }
  // Another workspace, whose issues must never be counted here.
  const other = await srv.bootstrap({ team: { key: "OTH", name: "Other" } });
  otherApi = srv.client(other.apiKey.token);
  await otherApi.POST("/issues", { body: { team: "OTH", title: "Elsewhere", priority: 1 } });
}, 120_000);

describe("countIssues", () => {
  it("counts every issue once in total and per state, as the list pages through them", async () => {
    const all = await listAll(api, { team: "ENG" });
    expect(all).toHaveLength(230);
    const got = await counts(api, { team: "ENG" });
    expect(got.total).toBe(230);
    expect(byKey(got.groups)).toEqual(tally(all, (i) => [i.state.id]));
    // Most issues first.
    const sizes = got.groups.map((g) => g.count);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });

  it.each([
    ["stateType", (i: Issue) => [i.state.type]],
    ["assignee", (i: Issue) => [i.assignee?.id ?? null]],
    ["priority", (i: Issue) => [i.priority]],
    ["project", (i: Issue) => [i.project?.id ?? null]],
    ["cycle", (i: Issue) => [i.cycle?.id ?? null]],
    ["team", (i: Issue) => [i.team.id]],
  ] as const)("groups by %s with the keys the contract names", async (groupBy, key) => {
    const all = await listAll(api, {});
    const got = await counts(api, { groupBy });
    expect(got.total).toBe(all.length);
    expect(byKey(got.groups)).toEqual(tally(all, key));
  });

  it("counts a board's columns, of every issue or the open ones, as the list has them after moves and archives", async () => {
    const open = ["backlog", "unstarted", "started"] as const;
    const agree = async () => {
      for (const query of [{ team: "ENG" }, { team: "ENG", stateType: [...open] }]) {
        const all = await listAll(api, query);
        const byState = await counts(api, query);
        expect(byState.total).toBe(all.length);
        expect(byKey(byState.groups)).toEqual(tally(all, (i) => [i.state.id]));
        const byType = await counts(api, { ...query, groupBy: "stateType" });
        expect(byKey(byType.groups)).toEqual(tally(all, (i) => [i.state.type]));
      }
    };
    await agree();
    const [first, second] = await listAll(api, { team: "ENG", stateType: ["backlog"] });
    await api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: first!.identifier } },
      body: { state: "Done" },
    });
    await api.POST("/issues/{identifier}/archive", { params: { path: { identifier: second!.identifier } } });
    await agree();
    await api.POST("/issues/{identifier}/unarchive", {
      params: { path: { identifier: second!.identifier } },
    });
    await api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: first!.identifier } },
      body: { state: "Backlog" },
    });
    await agree();
  });

  it("counts an issue with two labels in both label groups, and one without any under null", async () => {
    const all = await listAll(api, { team: "ENG" });
    const got = await counts(api, { team: "ENG", groupBy: "label" });
    const labels = await api.GET("/labels");
    const idOf = new Map(labels.data!.labels.map((l) => [l.name, l.id]));
    expect(got.total).toBe(230);
    expect(byKey(got.groups)).toEqual(
      tally(all, (i) => (i.labels.length ? i.labels.map((name) => idOf.get(name)!) : [null])),
    );
    const sum = got.groups.reduce((n, g) => n + g.count, 0);
    expect(sum).toBeGreaterThan(got.total);
  });

  it.each<[string, ListQuery]>([
    ["a state", { team: "ENG", state: "In Review" }],
    ["state types", { stateType: ["backlog", "unstarted", "started"] }],
    ["an assignee", { assignee: "me" }],
    ["no assignee", { assignee: "none" }],
    ["labels", { label: ["Bug", "Frontend"] }],
    ["no labels", { label: ["none"] }],
    ["the current cycle", { team: "ENG", cycle: "current" }],
    ["a project by name", { project: "Apollo" }],
    ["priorities", { priority: ["urgent", "none"] }],
    ["text search", { q: "crash" }],
    ["specials", { special: ["mine", "no_project"] }],
  ])("with %s, counts exactly what the list lists", async (_what, filter) => {
    const all = await listAll(api, filter);
    expect(all.length).toBeGreaterThan(0);
    const got = await counts(api, { ...filter, groupBy: "stateType" });
    expect(got.total).toBe(all.length);
    expect(byKey(got.groups)).toEqual(tally(all, (i) => [i.state.type]));
  });

  it("counts for each caller what that caller sees, never another workspace's issues", async () => {
    const mine = await counts(memberApi, { assignee: "me", groupBy: "assignee" });
    expect(mine.groups).toEqual([{ key: memberId, count: mine.total }]);
    expect(mine.total).toBe((await listAll(memberApi, { assignee: "me" })).length);
    const other = await counts(otherApi, { groupBy: "team" });
    expect(other.total).toBe(1);
    expect(other.groups).toHaveLength(1);
    expect((await counts(api, { groupBy: "priority" })).total).toBe(230);
    expect(userId).not.toBe(memberId);
    expect(cycleId).toBeTruthy();
  });

  it("answers a reference naming nothing as the list does, and zero for a filter matching nothing", async () => {
    const missing = await api.GET("/issues/counts", { params: { query: { project: "Nope" } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ code: "not_found" });
    const noTeam = await api.GET("/issues/counts", { params: { query: { state: "Todo" } } });
    expect(noTeam.response.status).toBe(400);
    expect(await counts(api, { q: "nothing-like-this-anywhere" })).toEqual({ total: 0, groups: [] });
  });

  it("refuses an unknown groupBy with 400 invalid_request naming the parameter", async () => {
    const res = await fetch(`${srv.url}/api/v1/issues/counts?groupBy=colour`, {
      headers: { authorization: `Bearer ${(await srv.bootstrap()).apiKey.token}` },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    const body = (await res.json()) as { code: string; errors: { path: string }[] };
    expect(body.code).toBe("invalid_request");
    expect(body.errors.map((e) => e.path)).toContain("/query/groupBy");
  });

  it("takes exactly the list's filters, so a filter added to the list cannot be missing here", () => {
    const params = (id: string) =>
      testContract()
        .operations.find((op) => op.operationId === id)!
        .parameters.filter((p) => p.in === "query")
        .map((p) => p.name);
    const listed = params("listIssues").filter((n) => !["sort", "limit", "offset", "cursor"].includes(n));
    expect(params("countIssues").filter((n) => n !== "groupBy")).toEqual(listed);
  });
});
