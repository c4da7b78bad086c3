import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startTestServer, type TestServer } from "@tracker/server/testing";
import { afterAll, beforeAll, vi } from "vitest";

/** The built `tracker` binary: tests run what users run. `npm test` builds it before the tests. */
export const BIN = fileURLToPath(new URL("../../dist/main.js", import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Written to standard input, which is then closed. */
  input?: string | Buffer;
  /** Give up (and fail) after this long. */
  timeoutMs?: number;
  /** The working directory (default: the test's). */
  cwd?: string;
}

/**
 * Runs `node dist/main.js <args>` with piped stdio and a clean environment (no login of this machine, no
 * colour settings), and collects what it printed and its exit code. Asynchronous, so an in-process server
 * keeps answering while the child runs.
 */
export function runBinary(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", LANG: "C.UTF-8" };
  for (const [key, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[key] = value;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env,
      cwd: options.cwd,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`tracker ${args.join(" ")} did not finish in time\nstdout: ${stdout}\nstderr: ${stderr}`),
      );
    }, options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}

export interface Session {
  server: TestServer;
  /** The admin's account key, of a workspace with team ENG. */
  token: string;
  workspace: { id: string; name: string; slug: string };
  user: { id: string; name: string; email: string };
  /** A fresh config directory for this file (XDG_CONFIG_HOME). */
  configHome: string;
  /** The environment a logged-out user with TRACKER_URL and TRACKER_API_KEY set has. */
  env(extra?: Record<string, string | undefined>): Record<string, string | undefined>;
  /** `tracker <args>` as that user. */
  run(args: string[], options?: RunOptions): Promise<RunResult>;
}

/** A real server on its own database for the test file, a workspace with team ENG and its admin's key. */
export function useSession(): Session {
  // Each test runs the binary many times, and a shared machine under load makes each run slow.
  vi.setConfig({ testTimeout: 120_000 });
  let server: TestServer | undefined;
  let boot: Awaited<ReturnType<TestServer["bootstrap"]>> | undefined;
  const configHome = mkdtempSync(path.join(os.tmpdir(), "tracker-cli-config-"));
  beforeAll(async () => {
    server = await startTestServer();
    boot = await server.bootstrap({ name: "Ada Lovelace", team: { key: "ENG", name: "Engineering" } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(configHome, { recursive: true, force: true });
  });
  const session: Session = {
    get server() {
      if (!server) throw new Error("the test server has not started");
      return server;
    },
    get token() {
      return boot!.apiKey.token;
    },
    get workspace() {
      return boot!.workspace;
    },
    get user() {
      return boot!.user;
    },
    configHome,
    env: (extra = {}) => ({
      HOME: configHome,
      XDG_CONFIG_HOME: configHome,
      TRACKER_URL: session.server.url,
      TRACKER_API_KEY: session.token,
      ...extra,
    }),
    run: (args, options = {}) => runBinary(args, { ...options, env: session.env(options.env) }),
  };
  return session;
}

/** Parses stdout as JSON, failing with what was printed when it is not. */
export function json<T = unknown>(result: RunResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.code}):\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  }
}

/** The lines of stdout, split on tabs. */
export function rows(result: RunResult): string[][] {
  return result.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\t"));
}
