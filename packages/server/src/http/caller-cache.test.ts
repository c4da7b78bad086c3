import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../server.js";
import { startAnotherInstance, startTestServer, type TestServer } from "../test/harness.js";

/**
 * The hottest reads take a caller the server authenticated earlier and confirm it in their own statement
 * (`caller-cache.ts`). What a client notices must not change: a deleted key, a removed member, a renamed
 * workspace are refused on the very next read, whichever server instance made the change and however often
 * the key was used just before.
 */
let srv: TestServer;
let second: RunningServer;
let admin: { token: string; slug: string; workspaceId: string };

/** Every read that confirms its caller in band, as a path under /api/v1. */
const READS = ["/issues", "/issues/ENG-1", "/issues/ENG-1/page-data", "/projects", "/initiatives"];

beforeAll(async () => {
  srv = await startTestServer();
  second = await startAnotherInstance(srv.databaseUrl);
  const a = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  admin = { token: a.apiKey.token, slug: a.workspace.slug, workspaceId: a.workspace.id };
  const created = await srv.client(admin.token).POST("/issues", { body: { team: "ENG", title: "First" } });
  expect(created.response.status).toBe(201);
});
afterAll(async () => {
  await second?.close();
  await srv?.close();
});

async function get(base: string, token: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/api/v1${path}`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  const body = (await res.json()) as { code?: string };
  return { status: res.status, code: body.code, workspace: res.headers.get("x-service-workspace") };
}

/** Uses the key on every read a few times, on both instances, so each has it cached. */
async function warm(token: string, headers: Record<string, string> = {}) {
  for (const base of [srv.url, second.url])
    for (let i = 0; i < 3; i++)
      for (const path of READS) expect((await get(base, token, path, headers)).status).toBe(200);
}

async function newKey(name: string): Promise<{ id: string; token: string }> {
  const res = await srv.client(admin.token).POST("/api-keys", { body: { name } });
  return { id: res.data!.key.id, token: res.data!.key.token };
}

describe("reads with a caller the server has seen", () => {
  it("refuse a deleted key at once, on the instance that deleted it and on another", async () => {
    const key = await newKey("doomed");
    await warm(key.token);
    const del = await srv.client(admin.token).DELETE("/api-keys/{id}", { params: { path: { id: key.id } } });
    expect(del.response.status).toBe(200);
    for (const base of [srv.url, second.url])
      for (const path of READS) {
        const res = await get(base, key.token, path);
        expect([path, res.status, res.code]).toEqual([path, 401, "unauthenticated"]);
      }
  });

  it("refuse a deleted key with 401 where the read finds nothing (an empty page, an unknown issue)", async () => {
    const key = await newKey("doomed-empty");
    await warm(key.token);
    expect((await get(srv.url, key.token, "/issues?q=nothingmatchesthis")).status).toBe(200);
    expect((await get(srv.url, key.token, "/issues/ENG-999999")).status).toBe(404);
    await srv.client(admin.token).DELETE("/api-keys/{id}", { params: { path: { id: key.id } } });
    expect((await get(srv.url, key.token, "/issues?q=nothingmatchesthis")).status).toBe(401);
    expect((await get(second.url, key.token, "/issues/ENG-999999")).status).toBe(401);
  });

  it("refuse a member removed from the workspace at once", async () => {
    const member = await srv.addMember(admin.token, "member");
    await warm(member.token);
    const removed = await srv
      .client(admin.token)
      .DELETE("/members/{userId}", { params: { path: { userId: member.userId } } });
    expect(removed.response.status).toBe(200);
    for (const base of [srv.url, second.url])
      for (const path of READS) {
        const res = await get(base, member.token, path, { "X-Service-Workspace": admin.slug });
        expect([path, res.status, res.code]).toEqual([path, 403, "workspace_forbidden"]);
      }
  });

  it("see a change written straight to the database, as another server would", async () => {
    const member = await srv.addMember(admin.token, "member");
    await warm(member.token);
    await srv.query("delete from memberships where user_id = $1 and workspace_id = $2", [
      member.userId,
      admin.workspaceId,
    ]);
    for (const base of [srv.url, second.url]) {
      const res = await get(base, member.token, "/issues", { "X-Service-Workspace": admin.slug });
      expect(res.status).toBe(403);
    }
  });

  it("stop answering to a workspace's old slug once it is renamed, and answer to the new one", async () => {
    const b = await srv.bootstrap({ team: { key: "OPS", name: "Operations" } });
    const headers = { "X-Service-Workspace": b.workspace.slug };
    // Not an empty page: the list's own statement confirms the caller.
    await srv.client(b.apiKey.token).POST("/issues", { body: { team: "OPS", title: "Runbook" } });
    for (let i = 0; i < 3; i++)
      expect((await get(second.url, b.apiKey.token, "/issues", headers)).status).toBe(200);
    const newSlug = `${b.workspace.slug}-renamed`;
    await srv.query("update workspaces set slug = $1 where id = $2", [newSlug, b.workspace.id]);
    const old = await get(second.url, b.apiKey.token, "/issues", headers);
    expect([old.status, old.code]).toEqual([403, "workspace_forbidden"]);
    const renamed = await get(second.url, b.apiKey.token, "/issues", { "X-Service-Workspace": newSlug });
    expect([renamed.status, renamed.workspace]).toEqual([200, newSlug]);
  });

  it("follow a key's active workspace when its owner is removed from it", async () => {
    const a = await srv.bootstrap({ workspaceName: "Alpha Cache", team: { key: "ALP", name: "Alpha" } });
    const c = await srv.bootstrap({ workspaceName: "Gamma Cache", team: { key: "GAM", name: "Gamma" } });
    // Not empty pages: the list's own statement confirms the caller.
    await srv.client(a.apiKey.token).POST("/issues", { body: { team: "ALP", title: "One" } });
    await srv.client(c.apiKey.token).POST("/issues", { body: { team: "GAM", title: "Two" } });
    const email = `roamer-${Math.random().toString(36).slice(2)}@example.com`;
    const inA = await srv.addMember(a.apiKey.token, "member", email);
    await srv.addMember(c.apiKey.token, "member", email);
    await srv.client(inA.token).PUT("/workspaces/active", { body: { workspace: c.workspace.slug } });
    for (let i = 0; i < 3; i++) {
      const res = await get(srv.url, inA.token, "/issues");
      expect([res.status, res.workspace]).toEqual([200, c.workspace.slug]);
    }
    await srv
      .client(c.apiKey.token)
      .DELETE("/members/{userId}", { params: { path: { userId: inA.userId } } });
    // Left with one workspace and no active one: that one, as if the key had never been seen.
    const res = await get(srv.url, inA.token, "/issues");
    expect([res.status, res.workspace]).toEqual([200, a.workspace.slug]);
  });
});
