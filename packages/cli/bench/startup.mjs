#!/usr/bin/env node
// Start-up bench of the built `tracker` binary: the process time (spawn to exit, wall clock) of
// `tracker --version` and of `tracker issues list --limit 50` against a local server, as a person typing
// them would wait. `npm run bench -w @tracker/cli` after `npm run build`.
//
// Against TRACKER_URL and TRACKER_API_KEY when both are set; otherwise it starts a server with
// `tracker server start` (embedded PostgreSQL in a temporary folder, development mode, demo workspace) and
// creates the issues it needs. RUNS (default 30) measured runs per command, after 3 warm-up runs.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));
const RUNS = Number(process.env.RUNS ?? 30);
const TARGETS = { version: 100, list: 250 };

if (!existsSync(BIN)) {
  console.error("dist/main.js is missing: build first (npx turbo run build --filter=@tracker/cli...)");
  process.exit(1);
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `tracker server start` on a temporary embedded database; resolves with its URL and demo key. */
async function startServer(dir) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [BIN, "server", "start", "--port", String(port), "--data-dir", path.join(dir, "data")],
    {
      env: { ...process.env, NODE_ENV: "development", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (d) => {
    out += d;
  });
  const started = Date.now();
  while (!/API key: (trk_\S+)/.test(out)) {
    if (child.exitCode !== null || Date.now() - started > 120_000)
      throw new Error(`the server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const key = /API key: (trk_\S+)/.exec(out)[1];
  const url = `http://127.0.0.1:${port}`;
  while (
    !(await fetch(`${url}/health`)
      .then((r) => r.ok)
      .catch(() => false))
  )
    await new Promise((r) => setTimeout(r, 200));
  return {
    url,
    key,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }),
  };
}

function time(args, env) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [BIN, ...args], { env, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0)
    throw new Error(`tracker ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return { ms, stdout: result.stdout };
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p90: at(0.9), min: sorted[0], max: sorted[sorted.length - 1] };
}

const dir = mkdtempSync(path.join(os.tmpdir(), "tracker-cli-bench-"));
let server;
try {
  let url = process.env.TRACKER_URL;
  let key = process.env.TRACKER_API_KEY;
  if (!url || !key) {
    console.error("Starting a server with 'tracker server start' on a temporary embedded database…");
    server = await startServer(dir);
    ({ url, key } = server);
  }
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_CONFIG_HOME: dir,
    TRACKER_URL: url,
    TRACKER_API_KEY: key,
  };
  const count = Number(time(["issues", "list", "--limit", "50", "--jq", "length"], env).stdout.trim());
  if (count < 50) {
    const team = time(["teams", "list", "--jq", ".[0].key"], env).stdout.trim();
    console.error(`Creating ${50 - count} issues in ${team}…`);
    for (let i = count; i < 50; i++)
      time(["issues", "create", "--team", team, "--title", `Bench issue ${i + 1}`], env);
  }

  const cases = [
    { name: "tracker --version", args: ["--version"], target: TARGETS.version },
    {
      name: "tracker issues list --limit 50",
      args: ["issues", "list", "--limit", "50"],
      target: TARGETS.list,
    },
  ];
  const results = [];
  for (const c of cases) {
    for (let i = 0; i < 3; i++) time(c.args, env);
    const samples = Array.from({ length: RUNS }, () => time(c.args, env).ms);
    results.push({ ...c, ...stats(samples) });
  }
  const bare = (() => {
    const samples = Array.from({ length: RUNS }, () => {
      const start = process.hrtime.bigint();
      spawnSync(process.execPath, ["-e", "0"]);
      return Number(process.hrtime.bigint() - start) / 1e6;
    });
    return stats(samples);
  })();

  const f = (n) => `${n.toFixed(0).padStart(5)} ms`;
  console.log(
    `\nCLI start-up, ${RUNS} runs each, wall clock from spawn to exit (${os.cpus().length} cores, Node ${process.versions.node})\n`,
  );
  console.log(`${"command".padEnd(34)}  median      p90      min   target`);
  for (const r of results) {
    console.log(
      `${r.name.padEnd(34)}  ${f(r.median)}  ${f(r.p90)}  ${f(r.min)}  ${r.target} ms ${r.median <= r.target ? "met" : "MISSED"}`,
    );
  }
  console.log(
    `${"node -e 0 (Node alone, for scale)".padEnd(34)}  ${f(bare.median)}  ${f(bare.p90)}  ${f(bare.min)}`,
  );
} finally {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
