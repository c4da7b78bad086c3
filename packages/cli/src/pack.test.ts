import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { useSession } from "./test/binary.js";

// What a person installs: `npm pack` of the CLI and the SDK, installed into an empty prefix from those
// tarballs and the npm registry (or its local cache) alone, then the installed `tracker` run.
const s = useSession();
const work = mkdtempSync(path.join(os.tmpdir(), "tracker-cli-pack-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const packages = fileURLToPath(new URL("../../", import.meta.url));

function npm(args: string[], cwd: string) {
  const result = spawnSync("npm", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false" },
  });
  if (result.status !== 0)
    throw new Error(`npm ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

function run(bin: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      env: { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, ...s.env() } as NodeJS.ProcessEnv,
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
    for (const pkg of ["sdk", "cli"]) npm(["pack", "--pack-destination", work], path.join(packages, pkg));
    const tarballs = readdirSync(work)
      .filter((f) => f.endsWith(".tgz"))
      .map((f) => path.join(work, f));
    expect(tarballs.map((t) => path.basename(t)).sort()).toEqual([
      "tracker-cli-0.1.0.tgz",
      "tracker-sdk-0.1.0.tgz",
    ]);

    const prefix = path.join(work, "prefix");
    npm(["install", "-g", "--prefix", prefix, "--prefer-offline", ...tarballs], work);
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
