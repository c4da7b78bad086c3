import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allHandlers } from "../handlers.js";
import { startTestServer, type TestServer, testContract } from "../test/harness.js";
import type { OperationSpec } from "./contract.js";

/**
 * The access matrix: every implemented operation, called with each kind of caller that must be refused,
 * gets the documented refusal and changes nothing. New operations join the matrix as they are built.
 */
let srv: TestServer;
let ctx: {
  adminToken: string;
  workspaceSlug: string;
  deletedToken: string;
  pinnedToken: string;
  otherWorkspaceSlug: string;
  strangerWorkspaceSlug: string;
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
  const stranger = await srv.bootstrap();
  ctx = {
    adminToken: a.apiKey.token,
    workspaceSlug: a.workspace.slug,
    deletedToken: doomed.data!.key.token,
    pinnedToken: pinned.data!.key.token,
    otherWorkspaceSlug: other.data!.workspace.slug,
    strangerWorkspaceSlug: stranger.workspace.slug,
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

/** A fingerprint of every table (api_keys without last_used_at, which reads may touch). */
async function fingerprint(): Promise<string> {
  const tables = await srv.query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const expr =
      table_name === "api_keys"
        ? "(t.id, t.user_id, t.scope, t.workspace_id, t.active_workspace_id, t.name, t.token_hash)::text"
        : "t::text";
    const [row] = await srv.query<{ h: string }>(
      `select md5(coalesce(string_agg(${expr}, '|' order by ${expr}), '')) as h from "${table_name}" t`,
    );
    parts.push(`${table_name}:${row!.h}`);
  }
  return parts.join("\n");
}

describe("access matrix", () => {
  it("covers at least the identity operations", () => {
    const ids = operations().map((o) => o.operationId);
    expect(ids).toEqual(
      expect.arrayContaining(["listUsers", "createInvite", "updateMember", "createApiKey"]),
    );
  });

  it("refuses every implemented operation without a valid key, and changes nothing", async () => {
    const before = await fingerprint();
    for (const op of operations().filter((o) => o.authenticated)) {
      const cases: [string, Record<string, string>][] = [
        ["no key", {}],
        ["unknown key", { authorization: "Bearer trk_doesnotexist000000000000000000" }],
        ["not a bearer token", { authorization: "Basic dXNlcjpwYXNz" }],
        ["deleted key", { authorization: `Bearer ${ctx.deletedToken}` }],
      ];
      for (const [what, headers] of cases) {
        const res = await call(op, headers);
        expect({ op: op.operationId, what, ...res }).toEqual({
          op: op.operationId,
          what,
          status: 401,
          code: "unauthenticated",
        });
      }
    }
    expect(await fingerprint()).toBe(before);
  });

  it("refuses a workspace key naming another workspace, and a non-member, on every workspace operation", async () => {
    const before = await fingerprint();
    for (const op of operations().filter((o) => o.workspaceScoped)) {
      const cases: [string, Record<string, string>][] = [
        [
          "workspace key, other workspace",
          { authorization: `Bearer ${ctx.pinnedToken}`, "x-service-workspace": ctx.otherWorkspaceSlug },
        ],
        [
          "non-member",
          { authorization: `Bearer ${ctx.adminToken}`, "x-service-workspace": ctx.strangerWorkspaceSlug },
        ],
      ];
      for (const [what, headers] of cases) {
        const res = await call(op, headers);
        expect({ op: op.operationId, what, ...res }).toEqual({
          op: op.operationId,
          what,
          status: 403,
          code: "workspace_forbidden",
        });
      }
    }
    expect(await fingerprint()).toBe(before);
  });

  it("refuses non-admins on admin operations, changing nothing", async () => {
    const member = await srv.addMember(ctx.adminToken, "member");
    const target = await srv.addMember(ctx.adminToken, "member");
    const invite = await srv
      .client(ctx.adminToken)
      .POST("/invites", { body: { email: "pending@example.com" } });
    const api = srv.client(member.token);
    const before = await fingerprint();
    const attempts = [
      await api.PATCH("/workspace", { body: { name: "Mine now" } }),
      await api.PATCH("/members/{userId}", {
        params: { path: { userId: target.userId } },
        body: { role: "admin" },
      }),
      await api.DELETE("/members/{userId}", { params: { path: { userId: target.userId } } }),
      await api.POST("/invites", { body: { email: "friend@example.com", role: "admin" } }),
      await api.DELETE("/invites/{id}", { params: { path: { id: invite.data!.invite.id } } }),
    ];
    for (const res of attempts) {
      expect(res.response.status).toBe(403);
      expect(res.error!.code).toBe("admin_required");
    }
    expect(await fingerprint()).toBe(before);
  });
});
