/**
 * Every operation of the contract, fed hostile values (malformed ids, NUL characters, huge numbers and
 * strings, wrong types for each body field, broken JSON), answers a problem+json 4xx or a success: never a
 * 5xx. The operations run against real resources of one workspace, reads first and deletes last.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addTeam } from "../modules/projects/planning.fixtures.js";
import { fillPath, walkOperations } from "../test/contract-walk.js";
import { startTestServer, type TestServer } from "../test/harness.js";

type Json = Record<string, unknown>;

let srv: TestServer;
let headers: Record<string, string>;
let guestHeaders: Record<string, string>;
let memberHeaders: Record<string, string>;
const ids: Record<string, string> = {};

async function send(method: string, path: string, body?: unknown, as = headers) {
  return fetch(`${srv.url}/api/v1${path}`, {
    method,
    headers: as,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Creates a resource and returns its id (answers wrap the resource in one key). */
async function create(path: string, body: Json): Promise<string> {
  const res = await send("POST", path, body);
  const json = (await res.json()) as Json;
  const inner = Object.values(json)[0] as { id?: string } | undefined;
  if (!res.ok || !inner?.id) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
  return inner.id;
}

beforeAll(async () => {
  srv = await startTestServer();
  const { apiKey, workspace, user } = await srv.bootstrap();
  headers = {
    authorization: `Bearer ${apiKey.token}`,
    "content-type": "application/json",
    // Pinned, so an operation that switches the active workspace does not move the rest elsewhere.
    "x-service-workspace": workspace.slug,
  };
  await addTeam(srv, workspace.id, "ENG", [user.id]);
  for (let i = 0; i < 3; i++) await create("/issues", { team: "ENG", title: `Issue ${i}`, labels: ["bug"] });
  ids.projects = await create("/projects", { name: "Apollo", teams: ["ENG"] });
  ids.initiatives = await create("/initiatives", { name: "Grow" });
  ids.cycles = await create("/cycles", { team: "ENG" });
  ids.labels = await create("/labels", { name: "feature" });
  ids.documents = await create("/documents", { title: "Spec", team: "ENG" });
  ids.views = await create("/views", { name: "Mine", filters: { assignee: "me" } });
  ids.invites = await create("/invites", { email: "someone@example.com" });
  ids["api-keys"] = await create("/api-keys", { name: "spare" });
  ids.commentId = await create("/issues/ENG-1/comments", { body: "hello" });
  ids.relationId = await create("/issues/ENG-1/relations", { type: "related", issue: "ENG-2" });
  ids.userId = (await srv.addMember(apiKey.token)).userId;
  const guest = await srv.addMember(apiKey.token, "guest");
  guestHeaders = { ...headers, authorization: `Bearer ${guest.token}` };
  const member = await srv.addMember(apiKey.token, "member");
  memberHeaders = { ...headers, authorization: `Bearer ${member.token}` };
}, 60_000);
afterAll(() => srv.close());

const PATH_VALUES = ["x", "00000000-0000-0000-0000-000000000000", "ENG-99999999999999999999", "%00", "a%00b"];
const QUERY_VALUES = ["", "x", "-5", "99999999999999999999", "a,b,,", "a%00b", "1e309"];
const FIELD_VALUES: unknown[] = [
  "a\u0000b",
  null,
  5,
  -1,
  1e20,
  true,
  "x",
  "2026-02-30",
  "0000-01-01",
  [],
  ["x"],
  [null],
  {},
];
const BODIES: unknown[] = [
  {},
  [],
  null,
  "text",
  5,
  { "a\u0000": 1 },
  "{not json",
  `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
  `{"a":${'{"a":'.repeat(50_000)}1${"}".repeat(50_001)}`,
];

/** Sends every hostile request as `as`; returns how many were sent and those answered badly. */
async function sweep(as: Record<string, string>): Promise<{ requests: number; failures: string[] }> {
  const failures: string[] = [];
  let requests = 0;
  const check = async (method: string, path: string, body?: unknown) => {
    requests++;
    const res = await send(method, path, body, as);
    const type = res.headers.get("content-type") ?? "";
    const text = await res.text();
    if (res.status >= 500 || (res.status >= 400 && !type.includes("application/problem+json")))
      failures.push(
        `${method} ${path} ${JSON.stringify(body)?.slice(0, 60)} -> ${res.status} ${text.slice(0, 120)}`,
      );
  };

  for (const op of walkOperations()) {
    const { path, method: M } = op;
    const resource = path.split("/")[1]!;
    const real = fillPath(path, {
      key: "ENG",
      identifier: "ENG-3",
      id: ids[resource],
      userId: ids.userId,
      commentId: ids.commentId,
      relationId: ids.relationId,
    });
    const hasBody = ["POST", "PUT", "PATCH"].includes(M);
    if (path.includes("{"))
      for (const v of PATH_VALUES) await check(M, path.replace(/\{[^}]+\}/g, v), hasBody ? {} : undefined);
    for (const name of op.query)
      for (const v of QUERY_VALUES) await check(M, `${real}?${name}=${v}`, hasBody ? {} : undefined);
    if (!hasBody) continue;
    for (const b of BODIES) await check(M, real, b);
    for (const f of op.bodyFields ?? []) for (const v of FIELD_VALUES) await check(M, real, { [f]: v });
  }
  return { requests, failures };
}

describe("hostile input", () => {
  it("takes query names like `__proto__` and `toString` as unknown parameters, and a repeated one as a list", async () => {
    const odd = await send(
      "GET",
      "/issues?__proto__=x&__proto__=y&toString=a&toString=b&constructor=c&team=ENG",
    );
    expect(odd.status).toBe(200);
    expect(((await odd.json()) as { issues: unknown[] }).issues).toHaveLength(3);
    const twice = await send("GET", "/issues?limit=1&limit=2");
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as Json).code).toBe("invalid_request");
  });

  // The guest and the member first: the admin's pass ends with each resource's delete.
  it("as a guest, never gets a 5xx or a body that is not problem+json", async () => {
    const { requests, failures } = await sweep(guestHeaders);
    expect(requests).toBeGreaterThan(2000);
    expect(failures).toEqual([]);
  }, 180_000);

  it("as a member, never gets a 5xx or a body that is not problem+json", async () => {
    const { requests, failures } = await sweep(memberHeaders);
    expect(requests).toBeGreaterThan(2000);
    expect(failures).toEqual([]);
  }, 180_000);

  it("as the admin, never gets a 5xx or a body that is not problem+json", async () => {
    const { requests, failures } = await sweep(headers);
    expect(requests).toBeGreaterThan(2000);
    expect(failures).toEqual([]);
  }, 180_000);
});
