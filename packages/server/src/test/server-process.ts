import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { spawnLogged } from "./spawn-logged.js";

/** The built server (`npm test` builds before testing): what `npm start` runs. */
export const serverDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist");

export interface ServerProcess {
  /** `http://127.0.0.1:<port>`, the port the server logged. */
  url: string;
  /** The demo admin's key, in development mode on an empty database. */
  demoKey: string | undefined;
  child: ReturnType<typeof spawnLogged>["child"];
  log: () => string;
  exited: Promise<number | null>;
  /** SIGTERM, and the exit code once it is gone. */
  stop(): Promise<number | null>;
}

/**
 * Starts the built server as its own process (`dist/main.js`, as `npm start` does) on a free port, and waits
 * until it logs that it listens. `env` adds to the test's environment; logs are JSON lines at `info`.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { script?: string; timeoutMs?: number } = {},
): Promise<ServerProcess> {
  const proc = spawnLogged(process.execPath, [path.join(serverDist, options.script ?? "main.js")], {
    env: { ...process.env, LOG_LEVEL: "info", PORT: "0", TRACKER_RATE_LIMIT_PER_MINUTE: "0", ...env },
  });
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let exitCode: number | null | undefined;
  void proc.exited.then((code) => {
    exitCode = code;
  });
  let port: string | undefined;
  while (!port) {
    if (exitCode !== undefined)
      throw new Error(`the server exited (${exitCode}) before listening:\n${proc.log()}`);
    if (Date.now() > deadline) throw new Error(`the server did not listen in time:\n${proc.log()}`);
    port = /"msg":"listening".*?localhost:(\d+)/.exec(proc.log())?.[1];
    if (!port) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    demoKey: /API key: (trk_\S+)/.exec(proc.log())?.[1],
    child: proc.child,
    log: proc.log,
    exited: proc.exited,
    async stop() {
      if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill("SIGTERM");
      return proc.exited;
    },
  };
}

/**
 * The postmaster of the embedded cluster in `dataDir`, seen from here: the postgres process started with
 * `-D <dataDir>` whose parent is the `unshare` that started it (its backends are the postmaster's children).
 */
export function postmasterPid(dataDir: string): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (!cmdline[0]?.endsWith("/postgres") || cmdline[1] !== "-D" || cmdline[2] !== dataDir) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
      const parent = readFileSync(`/proc/${ppid}/cmdline`, "utf8");
      if (parent.startsWith("unshare")) return Number(entry);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return undefined;
}

/** Live processes whose command line names `dataDir` (the cluster and its backends). */
export function postgresProcessesFor(dataDir: string): number {
  let n = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (cmd.includes("postgres") && cmd.includes(dataDir)) n++;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}

/** A fetch that remembers every answer's status, code and `Retry-After`, for tests of what clients saw. */
export interface RecordedAnswer {
  status: number;
  code?: string;
  retryAfter: string | null;
  contentType: string | null;
  /** The request's `Idempotency-Key`: the SDK's attempts of one write share it. */
  idempotencyKey: string | null;
}

export function recordingFetch(): {
  fetch: (request: Request) => Promise<Response>;
  answers: RecordedAnswer[];
} {
  const answers: RecordedAnswer[] = [];
  return {
    answers,
    async fetch(request: Request) {
      const idempotencyKey = request.headers.get("idempotency-key");
      const res = await fetch(request);
      const entry: RecordedAnswer = {
        idempotencyKey,
        status: res.status,
        retryAfter: res.headers.get("retry-after"),
        contentType: res.headers.get("content-type"),
      };
      if (res.status >= 400) {
        try {
          entry.code = ((await res.clone().json()) as { code?: string }).code;
        } catch {
          // not JSON: the assertion on content type says so
        }
      }
      answers.push(entry);
      return res;
    },
  };
}

/**
 * A connection URL to the running embedded cluster in `dataDir`, read from its `postmaster.pid` (the port
 * on line 4), over TCP on the loopback.
 */
export function embeddedDatabaseUrl(dataDir: string): string {
  const port = readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[3]!.trim();
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}
