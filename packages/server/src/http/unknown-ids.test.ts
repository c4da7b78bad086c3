/**
 * An id in a path that names nothing answers 404 `not_found`, whatever its shape: every operation of the
 * contract with a path parameter, called with a request that would otherwise succeed, the real value of
 * every other parameter, and one parameter replaced by values that name nothing (not UUIDs, and a UUID
 * that is no row). Parameters that also take keys or names (team key, issue identifier, project,
 * initiative and label names) name nothing with these values too, and answer the same.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addTeam } from "../modules/projects/planning.fixtures.js";
import { fillPath, walkOperations } from "../test/contract-walk.js";
import { startTestServer, type TestServer } from "../test/harness.js";
import type { OperationId } from "./handler.js";

type Json = Record<string, unknown>;

let srv: TestServer;
let headers: Record<string, string>;
const real: Record<string, string> = {};

/** Values that name nothing: not UUIDs (of several shapes), and a UUID of no row. */
const NOTHING = [
  "abc",
  "123",
  "ENG-1x",
  "00000000-0000-0000-0000-00000000000g",
  "00000000-0000-0000-0000-0000000000001",
  "ça va",
  "00000000-0000-0000-0000-000000000000",
];

/** A body each operation accepts, so that only the path decides the answer. */
const BODIES: Partial<Record<OperationId, Json>> = {
  updateMember: { role: "member" },
  updateTeam: { name: "Engineering" },
  addTeamMember: { userId: "me" },
  upsertWorkflow: { trigger: "pr_merged", targetStateId: "" },
  createWorkflowState: { name: "Testing", type: "started" },
  updateWorkflowState: { name: "Testing" },
  updateIssue: { title: "Renamed" },
  createIssueLink: { url: "https://example.com/pr/1" },
  createIssueRelation: { issue: "ENG-2", type: "related" },
  createComment: { body: "hi" },
  updateComment: { body: "edited" },
  updateProject: { name: "Apollo 2" },
  moveProject: { team: "ENG" },
  addProjectMember: { user: "me" },
  updateInitiative: { name: "Grow 2" },
  moveInitiative: { workspace: "elsewhere", team: "ENG" },
  updateCycle: { name: "Sprint" },
  updateLabel: { color: "#000000" },
  mergeLabel: { into: "feature" },
  updateDocument: { title: "Spec 2" },
  updateView: { name: "Mine 2" },
  updateWebhook: { enabled: true },
  createAgentActivity: { kind: "thought", body: "Looking" },
  createAgentMessage: { body: "Yes" },
  // Any bytes: an upload's body is the file (here the JSON text of this object).
  uploadAttachment: { any: "bytes" },
};

/** Required query parameters, per operation. */
const QUERIES: Partial<Record<OperationId, () => string>> = {
  removeProjectMember: () => `user=${real.userId}`,
  uploadAttachment: () => "filename=notes.txt",
  // A link with a signature of nothing: an unknown id answers as an expired link does.
  downloadAttachment: () => "expires=1&signature=x",
};

async function send(method: string, path: string, body?: unknown) {
  return fetch(`${srv.url}/api/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function create(path: string, body: Json): Promise<string> {
  const res = await send("POST", path, body);
  const json = (await res.json()) as Json;
  // Answers wrap the resource in one key, except a workflow rule's.
  const inner = (typeof json.id === "string" ? json : Object.values(json)[0]) as { id?: string } | undefined;
  if (!res.ok || !inner?.id) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
  return inner.id;
}

beforeAll(async () => {
  srv = await startTestServer();
  const { apiKey, workspace, user } = await srv.bootstrap();
  headers = {
    authorization: `Bearer ${apiKey.token}`,
    "content-type": "application/json",
    "x-service-workspace": workspace.slug,
  };
  const team = await addTeam(srv, workspace.id, "ENG", [user.id]);
  BODIES.upsertWorkflow = { trigger: "pr_merged", targetStateId: team.states.Done!.id };
  for (const title of ["One", "Two"]) await create("/issues", { team: "ENG", title });
  real.key = "ENG";
  real.identifier = "ENG-1";
  real.projects = await create("/projects", { name: "Apollo", teams: ["ENG"] });
  real.initiatives = await create("/initiatives", { name: "Grow" });
  real.cycles = await create("/cycles", { team: "ENG" });
  real.labels = await create("/labels", { name: "bug" });
  await create("/labels", { name: "feature" });
  real.documents = await create("/documents", { title: "Spec", team: "ENG" });
  real.views = await create("/views", { name: "Mine", filters: { assignee: "me" } });
  real.invites = await create("/invites", { email: "someone@example.com" });
  real["api-keys"] = await create("/api-keys", { name: "spare" });
  real.commentId = await create("/issues/ENG-1/comments", { body: "hello" });
  real.relationId = await create("/issues/ENG-1/relations", { type: "blocks", issue: "ENG-2" });
  real.ruleId = await create("/teams/ENG/workflows", BODIES.upsertWorkflow);
  // A webhook to the loopback's discard port (allowed for this request only): its deliveries go nowhere.
  vi.stubEnv("TRACKER_WEBHOOKS_ALLOW_PRIVATE", "1");
  real.webhooks = await create("/webhooks", {
    url: "http://127.0.0.1:9/hook",
    events: ["view_default.deleted"],
  });
  vi.unstubAllEnvs();
  real.userId = (await srv.addMember(apiKey.token)).userId;
  await send("POST", "/teams/ENG/members", { userId: real.userId });
  await send("POST", `/projects/${real.projects}/members`, { user: real.userId });
}, 60_000);
afterAll(() => srv.close());

describe("a path id that names nothing", () => {
  // A code host's delivery is authenticated by its signature: an unknown workspace answers 401 like a
  // wrong signature (the contract's receiveGithubDelivery), so it is not in this sweep.
  const operations = walkOperations().filter(
    (op) => op.path.includes("{") && op.operationId !== "receiveGithubDelivery",
  );

  it("covers every operation with a path parameter", () => {
    expect(operations.length).toBeGreaterThan(40);
    const missing = operations
      .filter((op) => op.bodyFields && !BODIES[op.operationId as OperationId])
      .map((op) => `${op.method} ${op.path}`);
    expect(missing).toEqual([]);
  });

  it("answers 404 not_found naming it, for every operation and parameter", async () => {
    const failures: string[] = [];
    for (const op of operations) {
      const operationId = op.operationId as OperationId;
      const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      for (const name of names) {
        for (const value of NOTHING) {
          const resource = op.path.split("/")[1]!;
          const path = fillPath(op.path, {
            key: real.key,
            identifier: real.identifier,
            id: real[resource],
            userId: real.userId,
            commentId: real.commentId,
            relationId: real.relationId,
            ruleId: real.ruleId,
            [name]: value,
          });
          const query = QUERIES[operationId]?.();
          const res = await send(op.method, query ? `${path}?${query}` : path, BODIES[operationId]);
          const problem = (await res.json()) as { code?: string; detail?: string };
          if (res.status !== 404 || problem.code !== "not_found" || !problem.detail?.includes(value))
            failures.push(`${op.method} ${path} -> ${res.status} ${problem.code}: ${problem.detail}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
