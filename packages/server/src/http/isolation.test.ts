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

interface Sweep {
  /** The caller. */
  headers: Record<string, string>;
  /** What the caller must never be shown (unless it has sent it itself). */
  secrets: Set<string>;
  /** Ids, names and identifiers of those things, named in query parameters and body fields. */
  values: string[];
  /** Path parameters naming those things: by name, and `id` by resource (first path segment). */
  pathIds: Record<string, string | undefined>;
  /** The caller's own team key and issue, for its own writes naming those things. */
  own: { key: string; identifier: string };
}

/** For the create operations: a body valid on its own, in the caller's team `key`. */
const validBodies = (key: string): Record<string, Json> => ({
  "/issues": { team: key, title: "Sweep issue" },
  "/projects": { name: `Sweep project ${Math.random()}`, teams: [key] },
  "/documents": { title: "Sweep document", team: key },
  "/updates": { title: "Sweep update", content: "Fine", team: key },
  "/cycles": { team: key },
  "/views": { name: `Sweep view ${Math.random()}`, filters: {} },
  "/initiatives": { name: `Sweep initiative ${Math.random()}` },
  "/labels": { name: `sweep-label-${Math.random()}` },
  "/issues/move": { identifiers: [`${key}-2`], team: key },
});

/** Calls every operation as `s.headers` naming the hidden things; returns each answer that showed one. */
async function sweep(s: Sweep): Promise<{ requests: number; leaks: string[] }> {
  const leaks: string[] = [];
  let requests = 0;
  // Whatever the caller has sent is its own to see again (it may have written it into its own things).
  let sent = "";
  const check = async (method: string, path: string, body?: unknown) => {
    requests++;
    sent += ` ${decodeURIComponent(path)} ${JSON.stringify(body ?? null)}`;
    const res = await send(s.headers, method, path, body);
    const shown = [...s.secrets].filter((x) => res.text.includes(x) && !sent.includes(x));
    if (shown.length || res.status >= 500)
      leaks.push(`${method} ${path} ${JSON.stringify(body)?.slice(0, 80)} -> ${res.status} shows ${shown}`);
  };

  for (const op of walkOperations()) {
    const { path, method } = op;
    if (path.startsWith("/workspaces") || path === "/invites/accept") continue;
    const hasBody = ["POST", "PUT", "PATCH"].includes(method);
    // The hidden things in the path.
    if (path.includes("{")) {
      const resource = path.split("/")[1]!;
      await check(
        method,
        fillPath(path, { ...s.pathIds, id: s.pathIds[resource] }),
        hasBody ? {} : undefined,
      );
    }
    // The hidden things as filters, and as the values of the caller's own writes. Deleting the caller's
    // own things proves nothing and would end the sweep's use of them.
    if (method === "DELETE") continue;
    if (path.includes("{") && !path.includes("{key}") && !path.includes("{identifier}")) continue;
    const own = fillPath(path, s.own);
    for (const name of op.query)
      for (const v of s.values)
        await check(method, `${own}?${name}=${encodeURIComponent(v)}`, hasBody ? {} : undefined);
    // Each field alone, and on top of a body that is otherwise valid (so the check of that field is
    // reached, rather than a refusal for what is missing).
    const base = method === "POST" ? validBodies(s.own.key)[path] : undefined;
    for (const field of op.bodyFields ?? [])
      for (const v of s.values)
        for (const value of [v, [v]]) {
          await check(method, own, { [field]: value });
          if (base) await check(method, own, { ...base, [field]: value });
        }
  }
  return { requests, leaks };
}

describe("workspace isolation", () => {
  it("never shows or changes another workspace's data, whatever the caller names", async () => {
    const before = await viewOfA();
    const { requests, leaks } = await sweep({
      headers: bHeaders,
      secrets,
      values: [
        ...[a.projects, a.initiatives, a.labels, a.userId, a.cycles].map((v) => v!),
        ...[
          "alpha-member@example.com",
          "ALP-1",
          "Alpha moonshot",
          "Alpha expansion",
          "alpha-only-label",
          "ALP",
        ],
      ],
      pathIds: {
        ...a,
        key: "ALP",
        identifier: "ALP-1",
      },
      own: { key: "BET", identifier: "BET-1" },
    });
    expect(requests).toBeGreaterThan(1000);
    expect(leaks).toEqual([]);
    expect(await viewOfA()).toBe(before);
  }, 180_000);

  it("never shows a guest the teams it is not in, whatever it names", async () => {
    // In workspace A: a team the guest is not in, with an issue, a project of that team alone, a
    // document and a cycle. The guest belongs to ALP only.
    const hidden = new Set<string>();
    const add = async (path: string, body: Json) => {
      const res = await send(aHeaders, "POST", path, body);
      const inner = Object.values(JSON.parse(res.text) as Json)[0] as Json;
      if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${res.text.slice(0, 300)}`);
      hidden.add(inner.id as string);
      return inner;
    };
    const team = await add("/teams", { key: "HID", name: "Hidden ops" });
    hidden.add("Hidden ops");
    await send(aHeaders, "PATCH", "/teams/HID", { cyclesEnabled: true });
    const cycle = await add("/cycles", { team: "HID", name: "Hidden sprint" });
    hidden.add("Hidden sprint");
    const project = await add("/projects", { name: "Hidden project", teams: ["HID"] });
    hidden.add("Hidden project");
    const issue = await add("/issues", { team: "HID", title: "Hidden incident", project: project.id });
    hidden.add("Hidden incident");
    const document = await add("/documents", { title: "Hidden runbook", team: "HID", issues: ["HID-1"] });
    hidden.add("Hidden runbook");
    const comment = await add("/issues/HID-1/comments", { body: "Hidden remark" });
    hidden.add("Hidden remark");
    const relation = await add("/issues/HID-1/relations", { type: "related", issue: "ALP-3" });
    const guest = await srv.addMember(aHeaders.authorization!.slice(7), "guest", "alpha-guest@example.com");
    await send(aHeaders, "POST", "/teams/ALP/members", { userId: guest.userId });
    const headers = { ...aHeaders, authorization: `Bearer ${guest.token}` };
    // The guest can see ALP at all (so the sweep is not refused wholesale).
    expect((await send(headers, "GET", "/issues/ALP-1")).status).toBe(200);

    const viewOfHidden = async () =>
      (
        await Promise.all(
          ["/issues/HID-1/page-data", `/projects/${project.id}/page-data`, `/documents/${document.id}`].map(
            async (path) => (await send(aHeaders, "GET", path)).text,
          ),
        )
      ).join("\n");
    const before = await viewOfHidden();
    const { requests, leaks } = await sweep({
      headers,
      secrets: hidden,
      values: [
        team.id as string,
        cycle.id as string,
        project.id as string,
        "HID",
        "HID-1",
        "Hidden project",
        "Hidden sprint",
      ],
      pathIds: {
        key: "HID",
        identifier: "HID-1",
        projects: project.id as string,
        cycles: cycle.id as string,
        documents: document.id as string,
        commentId: comment.id as string,
        relationId: relation.id as string,
      },
      own: { key: "ALP", identifier: "ALP-2" },
    });
    expect(issue.identifier).toBe("HID-1");
    expect(requests).toBeGreaterThan(1000);
    expect(leaks).toEqual([]);
    expect(await viewOfHidden()).toBe(before);
  }, 180_000);
});
