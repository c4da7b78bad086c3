import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, freshDatabase, packAndInstall, spawnLogged } from "@tracker/server/testing";
import { afterAll, describe, expect, it } from "vitest";
import { useSession } from "./test/binary.js";

// What a person installs: `npm pack` of the CLI and the SDK, installed into an empty prefix from those
// tarballs and the npm registry (or its local cache) alone, then the installed `tracker` run.
const s = useSession();
const work = mkdtempSync(path.join(os.tmpdir(), "tracker-cli-pack-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(
  bin: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      env: {
        PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`,
        ...s.env(),
        ...env,
      } as NodeJS.ProcessEnv,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm pack and install (real binary from the tarballs, real server)", () => {
  it("installs the CLI and the SDK into an empty prefix, and the installed tracker runs", {
    timeout: 180_000,
  }, async () => {
    const prefix = path.join(work, "prefix");
    const tarballs = packAndInstall(["sdk", "cli"], work, ["-g", "--prefix", prefix]);
    expect(tarballs).toEqual(["tracker-cli-0.1.0.tgz", "tracker-sdk-0.1.0.tgz"]);
    const tracker = path.join(prefix, "bin", "tracker");
    // Only the CLI's runtime dependencies came along: no test tools, no server.
    const installed = readdirSync(path.join(prefix, "lib", "node_modules", "@tracker"));
    expect(installed.sort()).toEqual(["cli", "sdk"]);

    expect(await run(tracker, ["--version"])).toEqual({
      code: 0,
      stdout: "tracker version 0.1.0\n",
      stderr: "",
    });
    const teams = await run(tracker, ["teams", "list", "--jq", ".[].key"]);
    expect(teams).toEqual({ code: 0, stdout: "ENG\n", stderr: "" });
    const serverless = await run(tracker, ["server", "start"]);
    expect(serverless.code).toBe(1);
    expect(serverless.stderr).toContain("the Tracker server is not installed beside this CLI");
  });
});

describe("npm pack and install with the server (real binaries from the tarballs, real PostgreSQL)", () => {
  it("tracker server start runs the installed server, whose demo key the installed tracker then uses", {
    timeout: 300_000,
  }, async () => {
    const withServer = mkdtempSync(path.join(work, "with-server-"));
    const prefix = path.join(withServer, "prefix");
    const tarballs = packAndInstall(["sdk", "cli", "server", "web"], withServer, ["-g", "--prefix", prefix]);
    expect(tarballs).toHaveLength(4);
    const tracker = path.join(prefix, "bin", "tracker");

    const databaseUrl = await freshDatabase(`cli_pack_${process.pid}`);
    const port = await freePort();
    const {
      child: server,
      log,
      exited,
    } = spawnLogged(tracker, ["server", "start", "--port", String(port)], {
      env: {
        PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: withServer,
        DATABASE_URL: databaseUrl,
      },
    });
    try {
      // Development mode: the empty database is migrated and gets a demo workspace whose key is printed.
      await expect.poll(log, { timeout: 120_000, interval: 250 }).toMatch(/API key: trk_\S+/);
      const key = /API key: (trk_\S+)/.exec(log())?.[1] ?? "";
      const teams = await run(tracker, ["teams", "list", "--jq", ".[].key"], {
        TRACKER_URL: `http://127.0.0.1:${port}`,
        TRACKER_API_KEY: key,
      });
      expect(teams.code).toBe(0);
      expect(teams.stdout.trim().split("\n").length).toBeGreaterThan(0);
    } finally {
      server.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    expect(log()).toContain('"msg":"shutting down"');
  });
});
