import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The commands a newcomer runs, for real: the built `setup` and `main` on an embedded database in a fresh
 * data folder inside a 0700 folder (npm test builds first).
 */
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist");
const root = mkdtempSync(path.join(os.tmpdir(), "tracker-e2e-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function postgresProcessesFor(dataDir: string): number {
  let n = 0;
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmd.includes("postgres") && cmd.includes(dataDir)) n++;
    } catch {
      // the process ended while we looked
    }
  }
  return n;
}

function run(script: string, args: string[], env: Record<string, string>) {
  return spawn(process.execPath, [path.join(dist, script), ...args], {
    env: { ...process.env, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

async function output(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { code, stdout, stderr };
}

function waitFor(child: ChildProcess, pattern: RegExp, timeoutMs = 60_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${pattern}; saw:\n${seen}`)),
      timeoutMs,
    );
    child.stdout!.on("data", (d) => {
      seen += d;
      const m = pattern.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.on("exit", () => reject(new Error(`exited before ${pattern}; saw:\n${seen}`)));
  });
}

// Real processes and a real cluster: give them room on a loaded two-core machine.
describe("the built commands", { timeout: 120_000 }, () => {
  it("are built (npm test builds before testing)", () => {
    expect(existsSync(path.join(dist, "main.js")) && existsSync(path.join(dist, "setup.js"))).toBe(true);
  });

  it("setup creates a workspace on a fresh data folder, and its key works once the server starts", async () => {
    const locked = path.join(root, "locked");
    mkdirSync(locked, { mode: 0o700 });
    const dataDir = path.join(locked, "data");
    const setup = await output(
      run("setup.js", ["--workspace", "Acme", "--email", "Ada@Example.com", "--name", "Ada"], {
        TRACKER_DATA_DIR: dataDir,
      }),
    );
    expect(setup.code).toBe(0);
    const printed = JSON.parse(setup.stdout) as {
      workspace: { slug: string };
      user: { email: string };
      apiKey: { token: string; scope: string };
    };
    expect(printed.workspace.slug).toBe("acme");
    expect(printed.user.email).toBe("ada@example.com");
    expect(printed.apiKey.scope).toBe("account");

    // PORT=0: the server takes a free port and logs it (a port picked here could be taken meanwhile).
    const server = run("main.js", [], { TRACKER_DATA_DIR: dataDir, PORT: "0", NODE_ENV: "production" });
    const [, port] = await waitFor(server, /"msg":"listening".*?localhost:(\d+)/);
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/users`, {
      headers: { authorization: `Bearer ${printed.apiKey.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-workspace")).toBe("acme");

    server.kill("SIGTERM");
    const exit = await new Promise<number | null>((resolve) => server.on("exit", resolve));
    expect(exit).toBe(0);
    expect(postgresProcessesFor(dataDir)).toBe(0);
  });

  it("npm start in development mode prints a demo key that works, on the first start and the next", async () => {
    const dataDir = path.join(root, "dev-data");
    for (let start = 0; start < 2; start++) {
      const server = run("main.js", [], { TRACKER_DATA_DIR: dataDir, PORT: "0", NODE_ENV: "development" });
      const [, key, port] = await waitFor(server, /API key: (trk_\S+)\s+Try: curl .*?localhost:(\d+)/);
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/users`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(200);
      server.kill("SIGTERM");
      await new Promise((resolve) => server.on("exit", resolve));
    }
    expect(postgresProcessesFor(dataDir)).toBe(0);
  });
});
