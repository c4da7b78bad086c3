import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allHandlers } from "../handlers.js";
import { databaseFingerprint } from "../test/fingerprint.js";
import { startTestServer, type TestServer, testContract } from "../test/harness.js";
import type { OperationSpec } from "./contract.js";

/**
 * Authentication for every implemented operation: callers without a valid key, and workspace keys
 * naming another workspace, get the documented refusal and change nothing. What each role may do once
 * authenticated is the role × action table's (rules/permissions.test.ts).
 */
let srv: TestServer;
let ctx: {
  deletedToken: string;
  pinnedToken: string;
  otherWorkspaceSlug: string;
};

beforeAll(async () => {
  srv = await startTestServer();
  const a = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const api = srv.client(a.apiKey.token);
  const other = await api.POST("/workspaces", { body: { name: "Second" } });
  await api.PUT("/workspaces/active", { body: { workspace: a.workspace.slug } });
  const pinned = await api.POST("/api-keys", { body: { name: "pinned", scope: "workspace" } });
  const doomed = await api.POST("/api-keys", { body: { name: "doomed", scope: "account" } });
  await api.DELETE("/api-keys/{id}", { params: { path: { id: doomed.data!.key.id } } });
  ctx = {
    deletedToken: doomed.data!.key.token,
    pinnedToken: pinned.data!.key.token,
    otherWorkspaceSlug: other.data!.workspace.slug,
  };
});
afterAll(() => srv.close());

const implemented = new Set(allHandlers.map((h) => h.operationId as string));
const operations = () =>
  testContract().operations.filter((op) => implemented.has(op.operationId) && !op.unversioned);

/** A concrete URL for an operation; refusals come before input is read, so placeholders do. */
function urlFor(op: OperationSpec): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === "identifier" ? "ENG-1" : name === "key" ? "ENG" : randomUUID(),
  );
  return `${srv.url}/api/v1${path}`;
}

async function call(op: OperationSpec, headers: Record<string, string>) {
  const res = await fetch(urlFor(op), {
    method: op.method.toUpperCase(),
    headers: { "content-type": "application/json", ...headers },
    body: ["post", "put", "patch"].includes(op.method) ? "{}" : undefined,
  });
  const body = (await res.json()) as { code?: string; requestId?: string };
  expect(res.headers.get("content-type")).toContain("application/problem+json");
  expect(body.requestId).toBe(res.headers.get("x-request-id"));
  return { status: res.status, code: body.code };
}

describe("authentication", () => {
  it("covers at least the identity operations", () => {
    const ids = operations().map((o) => o.operationId);
    expect(ids).toEqual(
      expect.arrayContaining(["listUsers", "createInvite", "updateMember", "createApiKey"]),
    );
  });

  it("refuses every implemented operation without a valid key, and changes nothing", async () => {
    await expectRefused(
      operations().filter((o) => o.authenticated),
      [
        ["no key", {}],
        ["unknown key", { authorization: "Bearer trk_doesnotexist000000000000000000" }],
        ["not a bearer token", { authorization: "Basic dXNlcjpwYXNz" }],
        ["deleted key", { authorization: `Bearer ${ctx.deletedToken}` }],
      ],
      { status: 401, code: "unauthenticated" },
    );
  });

  it("refuses a workspace key naming another workspace on every workspace operation", async () => {
    await expectRefused(
      operations().filter((o) => o.workspaceScoped),
      [
        [
          "workspace key, other workspace",
          { authorization: `Bearer ${ctx.pinnedToken}`, "x-service-workspace": ctx.otherWorkspaceSlug },
        ],
      ],
      { status: 403, code: "workspace_forbidden" },
    );
  });
});

/** Calls each operation with each kind of caller: every call gets `refusal`, and nothing changes. */
async function expectRefused(
  ops: OperationSpec[],
  callers: [string, Record<string, string>][],
  refusal: { status: number; code: string },
): Promise<void> {
  const before = await databaseFingerprint(srv);
  for (const op of ops) {
    for (const [what, headers] of callers) {
      const res = await call(op, headers);
      expect({ op: op.operationId, what, ...res }).toEqual({ op: op.operationId, what, ...refusal });
    }
  }
  expect(await databaseFingerprint(srv)).toBe(before);
}
