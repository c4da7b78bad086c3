/**
 * One workspace never sees or touches another's data, even when a caller names the other workspace's
 * things directly: every operation of the contract is called by the admin of workspace B with the ids, names
 * and identifiers of workspace A's resources, in the path, in each query parameter and in each body field.
 * No answer may carry anything of A the request did not itself contain, and A looks the same afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillPath, walkOperations } from "../test/contract-walk.js";
import { startTestServer, type TestServer } from "../test/harness.js";

type Json = Record<string, unknown>;

let srv: TestServer;
let aHeaders: Record<string, string>;
let bHeaders: Record<string, string>;
/** Workspace A's resources by path parameter or resource name. */
const a: Record<string, string> = {};
/** Every value of A a leak would show: ids, names, identifiers, emails. */
const secrets = new Set<string>();

async function send(headers: Record<string, string>, method: string, path: string, body?: unknown) {
  const res = await fetch(`${srv.url}/api/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** Creates one of A's resources, remembering its id and name as secrets. */
async function createA(path: string, body: Json): Promise<Json> {
  const res = await send(aHeaders, "POST", path, body);
  const json = JSON.parse(res.text) as Json;
  const inner = Object.values(json)[0] as Json;
  if (res.status >= 300 || typeof inner?.id !== "string")
    throw new Error(`POST ${path}: ${res.status} ${res.text.slice(0, 300)}`);
  secrets.add(inner.id);
  for (const key of ["name", "title", "identifier", "email"])
    if (typeof inner[key] === "string") secrets.add(inner[key] as string);
  return inner;
}

beforeAll(async () => {
  srv = await startTestServer();
  const wsA = await srv.bootstrap({ workspaceName: "Alpha", team: { key: "ALP", name: "Alpha squad" } });
  const wsB = await srv.bootstrap({ workspaceName: "Beta", team: { key: "BET", name: "Beta squad" } });
  aHeaders = {
    authorization: `Bearer ${wsA.apiKey.token}`,
    "content-type": "application/json",
    "x-service-workspace": wsA.workspace.slug,
  };
  bHeaders = {
    authorization: `Bearer ${wsB.apiKey.token}`,
    "content-type": "application/json",
    "x-service-workspace": wsB.workspace.slug,
  };
  secrets.add(wsA.workspace.id);
  secrets.add(wsA.user.id);
  secrets.add(wsA.user.email);
  secrets.add(wsA.team!.id);
  secrets.add("Alpha squad");

  const project = await createA("/projects", { name: "Alpha moonshot", teams: ["ALP"] });
  const initiative = await createA("/initiatives", { name: "Alpha expansion" });
  await send(aHeaders, "PATCH", `/projects/${project.id}`, { initiative: initiative.id });
  await send(aHeaders, "PATCH", "/teams/ALP", { cyclesEnabled: true });
  const cycle = await createA("/cycles", { team: "ALP", name: "Alpha sprint" });
  const label = await createA("/labels", { name: "alpha-only-label" });
  const issues: Json[] = [];
  for (const title of ["Alpha secret one", "Alpha secret two", "Alpha secret three"])
    issues.push(
      await createA("/issues", {
        team: "ALP",
        title,
        labels: ["alpha-only-label"],
        project: project.id,
        cycle: cycle.number,
      }),
    );
  const document = await createA("/documents", { title: "Alpha plans", team: "ALP", issues: ["ALP-1"] });
  const view = await createA("/views", { name: "Alpha view", filters: { team: "ALP" } });
  const invite = await createA("/invites", { email: "alpha-invitee@example.com" });
  const key = await createA("/api-keys", { name: "Alpha key" });
  const comment = await createA("/issues/ALP-1/comments", { body: "Alpha secret comment" });
  secrets.add("Alpha secret comment");
  const relation = await createA("/issues/ALP-1/relations", { type: "blocks", issue: "ALP-2" });
  const member = await srv.addMember(wsA.apiKey.token, "member", "alpha-member@example.com");
  secrets.add(member.userId);
  secrets.add(member.email);
  const update = await createA("/updates", { project: project.id, title: "Alpha status", content: "fine" });
  for (const title of ["Beta one", "Beta two"])
    await send(bHeaders, "POST", "/issues", { team: "BET", title });
  Object.assign(a, {
    projects: project.id,
    initiatives: initiative.id,
    cycles: cycle.id,
    labels: label.id,
    documents: document.id,
    views: view.id,
    invites: invite.id,
    "api-keys": key.id,
    commentId: comment.id,
    relationId: relation.id,
    userId: member.userId,
    updateId: update.id,
  });
}, 60_000);
afterAll(() => srv.close());

/** What A's admin sees, to compare before and after B's sweep. */
async function viewOfA(): Promise<string> {
  const paths = [
    "/issues?limit=200",
    "/issues/ALP-1/page-data",
    "/projects",
    "/initiatives",
    "/labels",
    "/documents",
    "/views",
    "/invites",
    "/users",
    "/cycles?team=ALP",
    "/teams/ALP/members",
    "/teams/ALP/workflows",
    `/updates?project=${a.projects}`,
  ];
  const parts: string[] = [];
  for (const path of paths) {
    const res = await send(aHeaders, "GET", path);
    // Drop what a read may touch and B cannot: the time of the answer's own computation.
    parts.push(`${path} ${res.status} ${res.text.replace(/"lastUsedAt":"[^"]*"/g, "")}`);
  }
  return parts.join("\n");
}

describe("workspace isolation", () => {
  it("never shows or changes another workspace's data, whatever the caller names", async () => {
    const before = await viewOfA();
    const values: string[] = [
      ...[a.projects, a.initiatives, a.labels, a.userId, a.cycles].map((v) => v!),
      ...[
        "alpha-member@example.com",
        "ALP-1",
        "Alpha moonshot",
        "Alpha expansion",
        "alpha-only-label",
        "ALP",
      ],
    ];
    const leaks: string[] = [];
    let requests = 0;
    const check = async (method: string, path: string, body?: unknown) => {
      requests++;
      const res = await send(bHeaders, method, path, body);
      const sent = `${decodeURIComponent(path)} ${JSON.stringify(body ?? null)}`;
      const shown = [...secrets].filter((s) => res.text.includes(s) && !sent.includes(s));
      if (shown.length || res.status >= 500)
        leaks.push(`${method} ${path} ${JSON.stringify(body)?.slice(0, 80)} -> ${res.status} shows ${shown}`);
    };

    for (const op of walkOperations()) {
      const { path, method } = op;
      if (path.startsWith("/workspaces") || path === "/invites/accept") continue;
      const hasBody = ["POST", "PUT", "PATCH"].includes(method);
      // A's things in the path: B's own resources where A has none of that kind.
      if (path.includes("{")) {
        const resource = path.split("/")[1]!;
        const target = fillPath(path, {
          key: "ALP",
          identifier: "ALP-1",
          id: a[resource],
          userId: a.userId,
          commentId: a.commentId,
          relationId: a.relationId,
        });
        await check(method, target, hasBody ? {} : undefined);
      }
      // A's things as filters and as the values of B's own writes.
      const own = fillPath(path, { key: "BET", identifier: "BET-1" });
      // Deleting B's own things by A's names proves nothing and would end the sweep's use of them.
      if (method === "DELETE") continue;
      if (path.includes("{") && !path.includes("{key}") && !path.includes("{identifier}")) continue;
      for (const name of op.query)
        for (const v of values)
          await check(method, `${own}?${name}=${encodeURIComponent(v)}`, hasBody ? {} : undefined);
      for (const field of op.bodyFields ?? [])
        for (const v of values) {
          await check(method, own, { [field]: v });
          await check(method, own, { [field]: [v] });
        }
    }
    expect(requests).toBeGreaterThan(1000);
    expect(leaks).toEqual([]);
    expect(await viewOfA()).toBe(before);
  }, 180_000);
});
