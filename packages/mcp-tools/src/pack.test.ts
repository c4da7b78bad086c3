import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { packAndInstall, startTestServer, type TestServer } from "@tracker/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, textOf } from "./test/connect.js";
import { ALL_TOOLS } from "./toolsets.js";

// What a person installs: `npm pack` of the tool server and the SDK, installed into an empty folder from
// those tarballs and the npm registry (or its local cache) alone, then the installed `tracker-mcp` run.
const work = mkdtempSync(path.join(os.tmpdir(), "tracker-mcp-pack-"));
let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = (await server.bootstrap({ name: "Ada Lovelace", team: { key: "ENG", name: "Engineering" } })).apiKey
    .token;
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("npm pack of the tool server (installed on its own, real server)", () => {
  it("installs from its tarball without tests or snapshots, and the installed tracker-mcp serves every tool", {
    timeout: 180_000,
  }, async () => {
    const tarballs = packAndInstall(["sdk", "mcp-tools"], work, []);
    expect(tarballs).toEqual(["tracker-mcp-tools-0.1.0.tgz", "tracker-sdk-0.1.0.tgz"]);
    const installed = path.join(work, "node_modules", "@tracker", "mcp-tools");
    expect(readdirSync(installed).sort()).toEqual(["LICENSE", "README.md", "dist", "package.json"]);

    const bin = path.join(work, "node_modules", ".bin", "tracker-mcp");
    const version = spawnSync(bin, ["--version"], { encoding: "utf8" });
    expect({ status: version.status, stdout: version.stdout }).toEqual({ status: 0, stdout: "0.1.0\n" });

    const client = await connectStdio(
      { TRACKER_URL: server.url, TRACKER_API_KEY: token, TRACKER_TOOLSETS: "all" },
      [],
      realpathSync(bin),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(ALL_TOOLS.map((t) => t.name));
      expect(textOf(await client.callTool({ name: "whoami", arguments: {} }))).toContain("Ada Lovelace");
    } finally {
      await client.close();
    }
  });
});
