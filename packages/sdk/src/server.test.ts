// The SDK against the real server (embedded PostgreSQL, started by the root vitest globalSetup). Only the
// workspace and identity operations are asserted here; the rest of the API is exercised by the server's
// own tests.

import { startTestServer, type TestServer } from "@tracker/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTracker, type Tracker, TrackerError, type TrackerOptions } from "./index.js";

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
