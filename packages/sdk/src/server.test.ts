// The SDK against the real server (embedded PostgreSQL, started by the root vitest globalSetup). Only the
// workspace and identity operations are asserted here; the rest of the API is exercised by the server's
// own tests.

import { startTestServer, type TestServer } from "@tracker/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTracker,
  responseOf,
  type Tracker,
  TrackerError,
  type TrackerEvent,
  type TrackerOptions,
} from "./index.js";

let server: TestServer;
let admin: Tracker;
let adminUser: { id: string; email: string };
let workspace: { id: string; slug: string; name: string };
let adminToken: string;

// An explicit empty key and workspace, so the developer's TRACKER_* variables never leak into a test. Every
// answer is checked against the contract on the way in (a wrong one fails the call, not just the test).
const connect = (options: TrackerOptions = {}) =>
  createTracker({ baseUrl: server.url, apiKey: "", workspace: "", fetch: server.fetch, ...options });

async function failure(call: Promise<unknown>): Promise<TrackerError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TrackerError);
  return err as TrackerError;
}

beforeAll(async () => {
  server = await startTestServer();
  const boot = await server.bootstrap({ workspaceName: "Acme SDK", email: "ada@example.com", name: "Ada" });
  adminToken = boot.apiKey.token;
  admin = connect({ apiKey: adminToken });
  adminUser = { id: boot.user.id, email: "ada@example.com" };
  workspace = { id: boot.workspace.id, slug: boot.workspace.slug, name: boot.workspace.name };
});

afterAll(async () => {
  await server?.close();
});

describe("SDK against the server: identity", () => {
  it("lists the workspace and its users for the bootstrap key", async () => {
    const workspaces = await admin.workspaces.list();
    expect(workspaces).toEqual([expect.objectContaining({ ...workspace, role: "admin", isActive: true })]);

    const users = await admin.users.list();
    expect(users).toEqual([
      expect.objectContaining({ id: adminUser.id, email: adminUser.email, role: "admin", isMe: true }),
    ]);
  });

  it("creates an API key that works, lists it, and refuses it once deleted", async () => {
    const key = await admin.apiKeys.create({ name: "CI", scope: "workspace" });
    expect(key).toMatchObject({ name: "CI", scope: "workspace", token: expect.stringMatching(/^trk_/) });

    const ci = connect({ apiKey: key.token });
    const seenByCi = await ci.users.list();
    expect(seenByCi.find((u) => u.isMe)?.id).toBe(adminUser.id);
    expect((await admin.apiKeys.list()).map((k) => k.name)).toContain("CI");

    await ci.apiKeys.delete(key.id);

    const err = await failure(ci.users.list());
    expect(err).toMatchObject({ status: 401, code: "unauthenticated" });
    expect(err.requestId).toEqual(expect.any(String));
    expect((await admin.apiKeys.list()).map((k) => k.name)).not.toContain("CI");
  });

  it("answers unauthenticated for an unknown key and for no key at all", async () => {
    const bad = await failure(connect({ apiKey: "trk_not-a-real-key" }).users.list());
    expect(bad).toMatchObject({ status: 401, code: "unauthenticated" });
    expect(bad.requestId).toBeTruthy();

    const none = await failure(connect().workspaces.list());
    expect(none).toMatchObject({ status: 401, code: "unauthenticated" });
  });

  it("reports invalid input field by field", async () => {
    const err = await failure(admin.apiKeys.create({ name: "" }));
    expect(err).toMatchObject({ status: 400, code: "invalid_request" });
    // The contract documents JSON Pointers (`/body/name`); the server currently answers `body.name`.
    expect(err.errors).toContainEqual(
      expect.objectContaining({ path: expect.stringMatching(/^\/?body[./]name$/) }),
    );
  });

  it("sends the workspace option as X-Service-Workspace, and a pinned key cannot name another workspace", async () => {
    // A second account key creates the second workspace, which becomes that key's active one only.
    const { token: ownerToken } = await admin.apiKeys.create({ name: "owner", scope: "account" });
    const owner = connect({ apiKey: ownerToken });
    const second = await owner.workspaces.create({ name: "Second SDK" });
    expect((await owner.workspaces.list()).find((w) => w.isActive)?.id).toBe(second.id);
    expect((await admin.workspaces.list()).find((w) => w.isActive)?.id).toBe(workspace.id);

    const { token: pinned } = await admin.apiKeys.create({ name: "pinned", scope: "workspace" });
    // Keys are listed per workspace: the key pinned to the first one is not listed in the second.
    const inSecond = connect({ apiKey: adminToken, workspace: second.slug });
    expect((await inSecond.apiKeys.list()).map((k) => k.name)).not.toContain("pinned");
    expect((await admin.apiKeys.list()).map((k) => k.name)).toContain("pinned");

    const err = await failure(connect({ apiKey: pinned, workspace: second.slug }).users.list());
    expect(err).toMatchObject({ status: 403, code: "workspace_forbidden" });

    // setActive switches where calls naming no workspace land.
    await expect(owner.workspaces.setActive(workspace.slug)).resolves.toMatchObject({ id: workspace.id });
    expect((await owner.workspaces.list()).find((w) => w.isActive)?.id).toBe(workspace.id);
  });

  it("renames the workspace and reads the code-host settings", async () => {
    await admin.workspaces.update({ name: "Acme SDK Renamed" });
    expect((await admin.workspaces.list()).find((w) => w.id === workspace.id)?.name).toBe("Acme SDK Renamed");

    const codehost = await admin.workspaces.codehost();
    expect(typeof codehost.configured).toBe("boolean");
    expect(Array.isArray(codehost.events)).toBe(true);
  });

  it("invites a member who accepts without a key, then changes their role and removes them", async () => {
    const invite = await admin.invites.create({ email: "bea@example.com", role: "member" });
    expect((await admin.invites.list()).map((i) => i.email)).toContain("bea@example.com");

    const token = new URL(invite.url).pathname.split("/").pop()!;
    const accepted = await connect().invites.accept({ token, name: "Bea" });
    expect(accepted.workspace.id).toBe(workspace.id);
    expect(accepted.apiKey.token).toMatch(/^trk_/);

    const again = await failure(connect().invites.accept({ token, name: "Bea" }));
    expect(again).toMatchObject({ status: 409, code: "invite_used" });

    const bea = connect({ apiKey: accepted.apiKey.token });
    expect((await bea.users.list()).find((u) => u.isMe)).toMatchObject({
      email: "bea@example.com",
      role: "member",
    });
    expect(await failure(bea.invites.create({ email: "cy@example.com" }))).toMatchObject({
      code: "admin_required",
    });

    await admin.members.update(accepted.user.id, { role: "guest" });
    expect((await admin.users.list()).find((u) => u.id === accepted.user.id)?.role).toBe("guest");

    await admin.members.remove(accepted.user.id);
    expect((await admin.users.list()).map((u) => u.email)).not.toContain("bea@example.com");
    expect(await failure(bea.users.list())).toMatchObject({ status: 403, code: "workspace_forbidden" });
  });

  it("refuses to demote the last admin, and withdraws an invite", async () => {
    expect(await failure(admin.members.update(adminUser.id, { role: "member" }))).toMatchObject({
      status: 409,
      code: "last_admin",
    });

    const invite = await admin.invites.create({ email: "dee@example.com" });
    await admin.invites.delete(invite.id);
    expect((await admin.invites.list()).map((i) => i.email)).not.toContain("dee@example.com");
  });
});

describe("SDK against the server: updates answer what they changed", () => {
  it("resolves a team, view, workspace and member update to the object as it now is", async () => {
    await admin.teams.create({ name: "Support", key: "SUP" });
    const team = await admin.teams.update("SUP", { key: "HELP", cyclesEnabled: true });
    expect(team).toMatchObject({ key: "HELP", name: "Support", cyclesEnabled: true });
    expect(team.states.map((s) => s.name)).toContain("Backlog");

    // An admin may change a team they have not joined: the answer is still the whole team.
    await admin.teams.removeMember("HELP", "me");
    const notJoined = await admin.teams.update("HELP", { name: "Help desk" });
    expect(notJoined).toMatchObject({ key: "HELP", name: "Help desk", cyclesEnabled: true });
    expect(notJoined.states.map((s) => s.name)).toContain("Backlog");

    const view = await admin.views.create({ name: "Open", filters: { stateType: ["started"] } });
    expect(await admin.views.update(view.id, { name: "Started", favorite: true })).toEqual({
      ...view,
      name: "Started",
      favorite: true,
    });

    expect(await admin.workspaces.update({ name: "Acme SDK Again" })).toMatchObject({
      id: workspace.id,
      name: "Acme SDK Again",
      role: "admin",
    });

    const member = await server.addMember(adminToken, "member", "cy@example.com");
    expect(await admin.members.update(member.userId, { role: "guest" })).toMatchObject({
      id: member.userId,
      email: "cy@example.com",
      role: "guest",
      isMe: false,
    });
  });

  it("archives an issue out of the list, lists it with archived, and unarchives it", async () => {
    await admin.teams.create({ name: "Archive", key: "ARC" });
    const issue = await admin.issues.create({ team: "ARC", title: "Old news" });
    const archived = await admin.issues.archive(issue.identifier);
    expect(archived).toMatchObject({ identifier: issue.identifier, archivedAt: expect.stringMatching(/Z$/) });
    expect((await admin.issues.list({ team: "ARC" })).items).toEqual([]);
    const only = await admin.issues.list({ team: "ARC", archived: "true" });
    expect(only.items.map((i) => i.identifier)).toEqual([issue.identifier]);
    expect((await admin.issues.get(issue.identifier)).archivedAt).toBe(archived.archivedAt);
    expect((await admin.issues.unarchive(issue.identifier)).archivedAt).toBeNull();
    expect((await admin.issues.list({ team: "ARC" })).items.map((i) => i.identifier)).toEqual([
      issue.identifier,
    ]);
    // @ts-expect-error: the filter takes "false", "true" or "any" only
    await failure(admin.issues.list({ archived: "yes" }));
  });
});

describe("SDK against the server: what every answer says", () => {
  it("marks each result with its request id, workspace and attempts, invisibly to its data", async () => {
    const team = await admin.teams.create({ name: "Research", key: "RES" });
    const info = responseOf(team)!;
    expect(info).toMatchObject({
      status: 201,
      method: "POST",
      workspace: workspace.slug,
      replayed: false,
      attempts: 1,
      rateLimit: { limit: null, remaining: null, resetSeconds: null, throttled: 0 },
    });
    expect(info.requestId).toMatch(/\S/);
    expect(Object.keys(team)).not.toContain("lastResponse");
    expect(JSON.parse(JSON.stringify(team))).toEqual({ ...team });

    // Lists, pages and whole answers are marked too; the client keeps the last one.
    const users = await admin.users.list();
    expect(responseOf(users)?.status).toBe(200);
    const page = await admin.issues.list({ team: "RES" });
    expect(responseOf(page)?.url).toContain("/api/v1/issues?team=RES");
    expect(admin.lastResponse?.requestId).toBe(responseOf(page)?.requestId);

    // A create re-sent with its key is the server's replay of the first answer.
    const again = await admin.issues.create({ team: "RES", title: "Once" }, { idempotencyKey: "sdk-once" });
    const replay = await admin.issues.create({ team: "RES", title: "Once" }, { idempotencyKey: "sdk-once" });
    expect(replay.id).toBe(again.id);
    expect(responseOf(replay)?.replayed).toBe(true);
  });

  it("calls onRequest, onResponse and onError around every attempt", async () => {
    const seen: string[] = [];
    const tracker = connect({
      apiKey: adminToken,
      onRequest: ({ method, url, headers, attempt }) => {
        headers.set("X-Trace-Id", "trace-1");
        seen.push(`request ${attempt} ${method} ${new URL(url).pathname}`);
      },
      onResponse: ({ status, requestId, attempt, durationMs }) => {
        expect(requestId).toMatch(/\S/);
        expect(durationMs).toBeGreaterThanOrEqual(0);
        seen.push(`response ${attempt} ${status}`);
      },
    });
    await tracker.users.list();
    await tracker.issues.get("RES-999").catch(() => {});
    expect(seen).toEqual([
      "request 1 GET /api/v1/users",
      "response 1 200",
      "request 1 GET /api/v1/issues/RES-999",
      "response 1 404",
    ]);

    const errors: string[] = [];
    const unreachable = createTracker({
      baseUrl: "http://127.0.0.1:9",
      apiKey: "trk_x",
      maxRetries: 1,
      onError: ({ attempt, error }) => {
        errors.push(`${attempt} ${error instanceof Error ? error.name : typeof error}`);
      },
    });
    await expect(unreachable.users.list()).rejects.toThrow(/Could not reach/);
    expect(errors).toEqual(["1 TypeError", "2 TypeError"]);
  });
});

describe("SDK against the server: the event stream", () => {
  it("yields typed events: connected with the workspace, then each change as a ChangeEvent", async () => {
    const controller = new AbortController();
    const events: TrackerEvent[] = [];
    const reading = (async () => {
      for await (const event of admin.events.stream({ signal: controller.signal })) {
        events.push(event);
        if (event.event === "changed" && event.data.entity === "issue") controller.abort();
      }
    })();
    await expect.poll(() => events.length).toBeGreaterThan(0);
    const issue = await admin.issues.create({ team: "RES", title: "Streamed" });
    await reading;
    const [connected] = events;
    expect(connected?.event === "connected" && connected.data.workspace).toBe(workspace.slug);
    const changed = events.find((e) => e.event === "changed");
    expect(changed?.data).toMatchObject({ entity: "issue", action: "created", id: issue.id });
    expect(changed?.id).toMatch(/^\d+$/);
  });
});
