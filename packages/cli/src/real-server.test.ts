import { createTracker } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { useRealServer } from "./test/real-server.js";

// The CLI against a real server and database, so the CLI, the SDK and the server agree on the wire.
// One file, so one server start, for every real-server check of the CLI.
const api = useRealServer();

describe("tracker users list (real server)", () => {
  it("prints the workspace's users as JSON, marking the key's owner", async () => {
    const { apiKey, user } = await api.server.bootstrap({ name: "Ada Lovelace" });
    const result = await api.tracker(["users", "list", "--json"], { TRACKER_API_KEY: apiKey.token });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { id: user.id, name: "Ada Lovelace", email: user.email, role: "admin", isMe: true },
    ]);
  });

  it("exits 4 with an unknown key", async () => {
    const result = await api.tracker(["users", "list"], { TRACKER_API_KEY: "trk_not_a_key" });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("unauthenticated");
  });
});

describe("tracker workspaces list / use (real server)", () => {
  it("lists every workspace of an account key, tab-separated, and switches the active one", async () => {
    const first = await api.server.bootstrap({ workspaceName: "Alpha Works" });
    // A second workspace for the same owner, made through the SDK; it becomes the key's active one.
    const sdk = createTracker({ baseUrl: api.server.url, apiKey: first.apiKey.token });
    const second = await sdk.workspaces.create({ name: "Beta Works" });
    const env = { TRACKER_API_KEY: first.apiKey.token };

    const listed = await api.tracker(["workspaces", "list"], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(
      `\t${first.workspace.slug}\tAlpha Works\tadmin\n*\t${second.slug}\tBeta Works\tadmin\n`,
    );

    const used = await api.tracker(["workspaces", "use", first.workspace.slug], env);
    expect(used.code).toBe(0);
    expect(used.stderr).toBe(`Now using Alpha Works (${first.workspace.slug})\n`);
    const after = await api.tracker(["workspaces", "list", "--json"], env);
    expect(JSON.parse(after.stdout)).toMatchObject([
      { slug: first.workspace.slug, isActive: true },
      { slug: second.slug, isActive: false },
    ]);
  });
});
