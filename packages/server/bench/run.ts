#!/usr/bin/env node
/**
 * `npm run bench`: seeds 100,000 issues across 20 teams into a fresh embedded PostgreSQL (or DATABASE_URL)
 * (`-- --issues 1000000`: 100,000 and then 1,000,000, each in a database of its own, side by side),
 * records EXPLAIN (ANALYZE, BUFFERS) of every listIssues query shape, starts the built server as a child
 * process in production mode and loads it with autocannon (16 connections, ~10 s per case). Writes
 * bench/results.json, bench/RESULTS.md and bench/PLANS.md under packages/server. Misses are reported,
 * never fatal: the exit code is non-zero only when the bench itself could not run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../src/db/embedded-postgres.js";
import { openOrm } from "../src/db/orm.js";
import { SEARCH_RECENT_ROWS } from "../src/modules/issues/list/search-recent.query.js";
import { type CpuShare, cpuSnapshot, cpuSpent } from "./cpu.js";
import {
  EVENTS_CASE,
  type EventsCaseResult,
  eventsMarkdown,
  eventsSummary,
  runEventsCase,
} from "./events.js";
import { explainListShapes, type PlanReport, plansMarkdown } from "./explain.js";
import { type MemoryStep, MemoryTrail, memoryMarkdown, residentMb } from "./memory.js";
import {
  type ContractOperation,
  contractOperations,
  type OperationRecipe,
  type OperationResult,
  operationsMarkdown,
  requestPath,
  runOperations,
} from "./operations.js";
import { explainPlanning, type PlanningSeeded, projectListPaths, seedPlanningBench } from "./projects.js";
import { localEndpoints, NOT_LOADED, operationRecipes } from "./recipes.js";
import { DEFAULT_SIZES, FILL_SEARCH_RECENT, type Seeded, seedBench } from "./seed.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const packageRoot = path.resolve(here, "../.."); // build/bench -> packages/server
const outDir = path.join(packageRoot, "bench");
// TRACKER_BENCH_SERVER_JS: another build of the server to load (an A/B of two builds on one machine).
const mainJs = process.env.TRACKER_BENCH_SERVER_JS ?? path.join(packageRoot, "dist", "main.js");
const floorJs = path.join(here, "floor.js");
/** The contract the operations are read from: the checkout's, else the one the build ships. */
const contractPath = [
  path.resolve(packageRoot, "../../openapi.yaml"),
  path.join(packageRoot, "dist", "openapi.yaml"),
].find((p) => existsSync(p))!;

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "16" },
    // One size, or, above `--compare-with` (100,000), that size beside it (`--issues 1000000` reports
    // both, with the growth of each figure), each in a database of its own.
    issues: { type: "string", default: String(DEFAULT_SIZES.issues) },
    "compare-with": { type: "string", default: String(DEFAULT_SIZES.issues) },
    streams: { type: "string", default: "2000" },
    // The live-events case: changes committed per second, for how long, and the client threads.
    "event-rate": { type: "string", default: "100" },
    "event-seconds": { type: "string", default: "20" },
    "client-threads": { type: "string" },
    "skip-explain": { type: "boolean", default: false },
    "explain-only": { type: "boolean", default: false },
    only: { type: "string" },
    // The embedded cluster's folder, kept after the run (default: a temp folder, removed at the end).
    "data-dir": { type: "string" },
    // Reuse a size's database (`bench_<N>`) whose seed completed in an earlier run on the same cluster.
    reuse: { type: "boolean", default: false },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const WARMUP = Math.min(3, Math.max(1, Math.round(DURATION / 4)));
const ISSUES = Number(args.issues);
const COMPARE_WITH = Number(args["compare-with"]);
const SIZES = ISSUES > COMPARE_WITH ? [COMPARE_WITH, ISSUES] : [ISSUES];

/**
 * The order in which a read loads the server and the floor, each leg a quarter of the case's duration (so
 * each side gets the duration in all): alternating in mirrored pairs, so drift over the case falls on both.
 */
const LEG_ORDER = ["server", "floor", "floor", "server", "server", "floor", "floor", "server"] as const;
const LEGS_TEXT = LEG_ORDER.map((side) => (side === "server" ? "S" : "F")).join("");

const TARGETS = { readP99Ms: 50, readRps: 1000, createRps: 500, rssMb: 300, floorShare: 0.75 };

interface CaseSpec {
  name: string;
  /** A write other than a create is reported without a target. */
  kind: "read" | "create" | "write";
  method: string;
  /** A new path (and body, and headers) per request, rotating over the seeded data. */
  next: () => { path: string; body?: string; headers?: Record<string, string> };
  /** The key to send, when the case runs in another workspace than the issue cases'. */
  token?: string;
  /** Concurrent connections, when not the bench's `--connections` (an import's many writers). */
  connections?: number;
  /** Issues each request creates, for a batch: the result reports issues a second too. */
  issuesPerRequest?: number;
  /** How many requests `next` gives before it repeats, when that is more than a warm-up sends. */
  distinct?: number;
  /** Run before the case's probe: what `next` needs from the server first (the ETags it sends back). */
  prepare?: (base: string, token: string) => Promise<void>;
  /** The answer a request should get, when not a 2xx: 304 for a revalidation. */
  expectStatus?: 304;
  /** Whether the read is compared with the floor, which neither compresses nor revalidates. Default true. */
  floor?: false;
}

interface CaseResult {
  name: string;
  kind: "read" | "create" | "write";
  method: string;
  example: string;
  status: "ran" | "not_built" | "failed";
  note?: string;
  requestsPerSec?: number;
  p50Ms?: number;
  p99Ms?: number;
  requests?: number;
  non2xx?: number;
  errors?: number;
  targets?: { name: string; target: string; value: number; met: boolean }[];
  /** CPU ms per request spent by the server, PostgreSQL and the load generator (bench/cpu.ts). */
  cpu?: CpuShare;
  /** Issues created a second (requests a second times the issues each creates), for the create cases. */
  issuesPerSec?: number;
  /** The same case on the floor (bench/floor.ts), in legs alternating with the server's, for reads. */
  floor?: FloorResult;
  /** Bytes on the wire of the case's first read: plain, gzip, brotli, and as a 304 for its ETag. */
  bytes?: WireBytes;
}

interface WireBytes {
  identity: number;
  gzip: number;
  br: number;
  notModified: number;
}

interface FloorResult {
  requestsPerSec?: number;
  p50Ms?: number;
  p99Ms?: number;
  cpu?: CpuShare;
  /** The server's req/s over the floor's: the target is at least `TARGETS.floorShare`. */
  ratio?: number;
  /** Req/s of each leg in the order they ran (`LEG_ORDER`). */
  legs?: number[];
  /** Whether the floor answered the case's first path with the server's very body. */
  sameBody: boolean;
  note?: string;
}

const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

function rotate<T>(items: T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length]!;
}

/** The planning cases run in their own workspace of 1,000 projects (see projects.ts). */
function planningCases(planning: PlanningSeeded): CaseSpec[] {
  const projectList = rotate(projectListPaths(planning));
  return [
    {
      name: "list: projects (1,000, progress + health), default sort",
      kind: "read",
      method: "GET",
      token: planning.adminToken,
      next: () => ({ path: "/api/v1/projects" }),
    },
    {
      name: "list: projects (1,000), rotating sorts and computed filters",
      kind: "read",
      method: "GET",
      token: planning.adminToken,
      next: () => ({ path: projectList() }),
    },
    {
      name: "list: initiatives (50 over 1,000 projects)",
      kind: "read",
      method: "GET",
      token: planning.adminToken,
      next: () => ({ path: "/api/v1/initiatives" }),
    },
  ];
}

function cases(seeded: Seeded): CaseSpec[] {
  const api = "/api/v1";
  const team = rotate(seeded.teamKeys);
  const ident = rotate(seeded.identifiers);
  const revalidated = seeded.identifiers.slice(0, 500);
  const revalidate = rotate(revalidated);
  const etags = new Map<string, string>();
  const listEtags = new Map<string, string>();
  const query = rotate([
    "crash report",
    "database migration",
    "login -timeout",
    "search or index",
    '"dark mode"',
  ]);
  let created = 0;
  return [
    {
      name: "list: team filter, sort -priority",
      kind: "read",
      method: "GET",
      next: () => ({ path: `${api}/issues?team=${team()}&sort=-priority` }),
    },
    {
      // One team's overdue issues beside the team's plain list above: a computed filter should cost what the
      // plain list does (issue 38 measured it at half the plain list's rate).
      name: "list: team filter, special=overdue",
      kind: "read",
      method: "GET",
      next: () => ({ path: `${api}/issues?team=${team()}&special=overdue` }),
    },
    {
      name: "list: special=overdue,blocked",
      kind: "read",
      method: "GET",
      next: () => ({ path: `${api}/issues?special=overdue,blocked` }),
    },
    {
      name: "list: full-text q",
      kind: "read",
      method: "GET",
      next: () => ({ path: `${api}/issues?q=${encodeURIComponent(query())}` }),
    },
    {
      name: "read: GET /issues/{identifier}",
      kind: "read",
      method: "GET",
      distinct: seeded.identifiers.length,
      next: () => ({ path: `${api}/issues/${ident()}` }),
    },
    {
      // A client that kept the issue's ETag asks again (the SDK does by default, browsers by themselves).
      name: "read: GET /issues/{identifier}, revalidated (304)",
      kind: "read",
      method: "GET",
      floor: false,
      expectStatus: 304,
      prepare: async (base, token) => {
        for (const identifier of revalidated) {
          const res = await fetch(`${base}${api}/issues/${identifier}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          await res.arrayBuffer();
          etags.set(identifier, res.headers.get("etag") ?? "");
        }
      },
      next: () => {
        const identifier = revalidate();
        return {
          path: `${api}/issues/${identifier}`,
          headers: { "if-none-match": etags.get(identifier) ?? "" },
        };
      },
    },
    {
      // A client that kept a team list's ETag asks again: the list's tag comes from the workspace's versions
      // (modules/issues/list/revalidate.query.ts), so the 304 costs one lookup, not the list's statement.
      name: "list: team filter, sort -priority, revalidated (304)",
      kind: "read",
      method: "GET",
      floor: false,
      expectStatus: 304,
      prepare: async (base, token) => {
        for (const key of seeded.teamKeys) {
          const res = await fetch(`${base}${api}/issues?team=${key}&sort=-priority`, {
            headers: { authorization: `Bearer ${token}` },
          });
          await res.arrayBuffer();
          listEtags.set(key, res.headers.get("etag") ?? "");
        }
      },
      next: () => {
        const key = team();
        return {
          path: `${api}/issues?team=${key}&sort=-priority`,
          headers: { "if-none-match": listEtags.get(key) ?? "" },
        };
      },
    },
    {
      // As a browser or the SDK asks for a page of the list on a real network: brotli, at the server's cost.
      name: "list: team filter, sort -priority, brotli",
      kind: "read",
      method: "GET",
      floor: false,
      next: () => ({
        path: `${api}/issues?team=${team()}&sort=-priority`,
        headers: { "accept-encoding": "br" },
      }),
    },
    {
      name: "read: GET /issues/{identifier}/page-data",
      kind: "read",
      method: "GET",
      distinct: seeded.identifiers.length,
      next: () => ({ path: `${api}/issues/${ident()}/page-data` }),
    },
    {
      name: "create: POST /issues",
      kind: "create",
      method: "POST",
      next: () => ({
        path: `${api}/issues`,
        body: JSON.stringify({ team: team(), title: `Bench issue ${++created}`, priority: created % 5 }),
      }),
    },
    {
      // As every SDK client sends it: a fresh key per create, stored with the issue in its transaction.
      name: "create: POST /issues with Idempotency-Key",
      kind: "create",
      method: "POST",
      next: () => ({
        path: `${api}/issues`,
        body: JSON.stringify({ team: team(), title: `Bench issue ${++created}`, priority: created % 5 }),
        headers: { "idempotency-key": randomUUID() },
      }),
    },
    // An import into one team: every create takes the team's number lock until it commits, so 50 writers
    // of single creates take turns, one commit each; a batch of 100 takes it once and commits once.
    {
      name: "import into one team: POST /issues, 50 writers",
      kind: "create",
      method: "POST",
      connections: 50,
      issuesPerRequest: 1,
      next: () => ({
        path: `${api}/issues`,
        body: JSON.stringify({ team: seeded.teamKeys[0], title: `Imported ${++created}` }),
      }),
    },
    {
      name: "import into one team: POST /issues/batch (100 a request), 4 writers",
      kind: "create",
      method: "POST",
      connections: 4,
      issuesPerRequest: BATCH_SIZE,
      next: () => ({
        path: `${api}/issues/batch`,
        body: JSON.stringify({
          issues: Array.from({ length: BATCH_SIZE }, () => ({
            team: seeded.teamKeys[0],
            title: `Imported ${++created}`,
          })),
        }),
      }),
    },
  ];
}

/**
 * The operations people call all day (issue 38), as full cases of the bench's duration and connections, from
 * the same recipes as the every-operation run (bench/recipes.ts). None has a floor: the floor serves the
 * issue lists and reads and the project and initiative lists only (bench/floor.ts).
 */
const EVERYDAY: [operationId: string, kind: "read" | "write"][] = [
  ["updateIssue", "write"],
  ["createComment", "write"],
  ["createIssueRelation", "write"],
  ["moveIssues", "write"],
  ["getIssueHistory", "read"],
  ["listComments", "read"],
  ["getProject", "read"],
  ["getProjectPageData", "read"],
  ["updateProject", "write"],
  ["listCycles", "read"],
  ["updateCycle", "write"],
  ["listLabels", "read"],
  ["updateLabel", "write"],
  ["listViews", "read"],
  ["getDigest", "read"],
];

function everydayCases(
  recipes: Record<string, OperationRecipe>,
  operations: ContractOperation[],
): CaseSpec[] {
  return EVERYDAY.flatMap(([id, kind]) => {
    const op = operations.find((o) => o.operationId === id);
    const recipe = recipes[id];
    if (!op || !recipe) return [];
    const request = () => {
      const r = recipe.next();
      return {
        path: requestPath(op, r),
        ...(r.body !== undefined ? { body: JSON.stringify(r.body) } : {}),
        ...(r.headers ? { headers: r.headers } : {}),
      };
    };
    return [
      {
        name: `${kind === "read" ? "read" : "write"}: ${op.method} ${op.template} (${id})`,
        kind,
        method: op.method,
        floor: false as const,
        ...(recipe.prepare ? { prepare: async () => recipe.prepare!() } : {}),
        next: request,
      },
    ];
  });
}

/** Issues a batch case sends per request: the most `POST /issues/batch` takes. */
const BATCH_SIZE = 100;

/**
 * Trims the recent issues of search as the server would within a minute of starting, then vacuums and
 * analyzes the whole database after the seed, as autovacuum would soon after a bulk load, and
 * waits (at most a minute) until no autovacuum worker runs. Its catch-up on the loaded comments, labels and
 * relations otherwise ran, throttled, through the first cases: in the runs just before and after this, the
 * first case spent 22% more CPU per request without it, the fifth 11%, the last ones the same. Seconds taken.
 */
async function settleAfterLoad(databaseUrl: string): Promise<number> {
  const started = Date.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // The load's issues are all recent ones for search until the server's first prune trims them.
    await client.query("select tracker_search_recent_prune($1)", [SEARCH_RECENT_ROWS]);
    await client.query("vacuum (analyze)");
    for (let quiet = 0; quiet < 2 && Date.now() - started < 60_000; ) {
      await new Promise((r) => setTimeout(r, 500));
      const { rows } = await client.query(
        "select count(*)::int as n from pg_stat_activity where backend_type = 'autovacuum worker'",
      );
      quiet = rows[0].n === 0 ? quiet + 1 : 0;
    }
  } finally {
    await client.end();
  }
  return (Date.now() - started) / 1000;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server not healthy within 60 s");
}

/** One timed load of a case on one process: what autocannon and /proc saw in it. */
interface Leg {
  seconds: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  spent: ReturnType<typeof cpuSpent>;
}

function caseHeaders(spec: CaseSpec, token: string): Record<string, string> {
  return { authorization: `Bearer ${spec.token ?? token}`, "content-type": "application/json" };
}

/** The autocannon request of a case: a new path (and body) from `spec.next()` for every request. */
function caseRequests(spec: CaseSpec, headers: Record<string, string>) {
  return [
    {
      method: spec.method,
      setupRequest: (req: {
        path?: string;
        body?: string;
        method?: string;
        headers?: Record<string, string>;
      }) => {
        const n = spec.next();
        req.path = n.path;
        if (n.body !== undefined) req.body = n.body;
        if (n.headers) req.headers = { ...headers, ...n.headers };
        return req;
      },
    },
  ];
}

/** Loads `base` with `spec`'s requests for a time (`duration`, seconds) or a number of requests (`amount`). */
function load(base: string, token: string, spec: CaseSpec, size: { duration: number } | { amount: number }) {
  const headers = caseHeaders(spec, token);
  const requests = caseRequests(spec, headers);
  return autocannon({ url: base, connections: spec.connections ?? CONNECTIONS, headers, requests, ...size });
}

/** Loads `base` with `spec` for `seconds` after `warmup` seconds, counting the CPU of `pid`, PostgreSQL and the bench. */
async function runLeg(
  base: string,
  token: string,
  pid: number,
  spec: CaseSpec,
  seconds: number,
  warmup: number,
): Promise<Leg> {
  if (warmup > 0) await load(base, token, spec, { duration: warmup });
  const before = cpuSnapshot(pid);
  const r = await load(base, token, spec, { duration: seconds });
  return {
    seconds: r.duration,
    requests: r.requests.total,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    // A revalidation's 304 is its answer, not a failure.
    non2xx: r.non2xx - (spec.expectStatus ? (r.statusCodeStats?.[String(spec.expectStatus)]?.count ?? 0) : 0),
    errors: r.errors,
    timeouts: r.timeouts,
    spent: cpuSpent(before, cpuSnapshot(pid)),
  };
}

/**
 * Legs of one process taken as one run: requests a second over their summed time, CPU over their summed
 * requests, p50 weighted by requests, and the worst leg's p99 (autocannon gives percentiles, not the
 * histogram they come from, so the legs' p99s cannot be merged exactly; the worst one never flatters).
 */
function combineLegs(legs: Leg[]) {
  const sum = (f: (l: Leg) => number) => legs.reduce((n, l) => n + f(l), 0);
  const requests = sum((l) => l.requests);
  const seconds = sum((l) => l.seconds);
  const per = (ms: number) => Math.round((ms / Math.max(1, requests)) * 100) / 100;
  const [non2xx, errors, timeouts] = [sum((l) => l.non2xx), sum((l) => l.errors), sum((l) => l.timeouts)];
  return {
    requestsPerSec: requests / Math.max(1e-9, seconds),
    p50Ms: Math.round((sum((l) => l.p50Ms * l.requests) / Math.max(1, requests)) * 10) / 10,
    p99Ms: Math.max(...legs.map((l) => l.p99Ms)),
    requests,
    non2xx,
    errors,
    timeouts,
    /** What went wrong in the legs, when anything did. */
    failure:
      non2xx + errors + timeouts > 0
        ? `${non2xx} non-2xx responses, ${errors} errors, ${timeouts} timeouts`
        : undefined,
    cpu: {
      serverMs: per(sum((l) => l.spent.server)),
      postgresMs: per(sum((l) => l.spent.postgres)),
      loadGeneratorMs: per(sum((l) => l.spent.bench)),
    } satisfies CpuShare,
  };
}

/** Answers the case's first path once; a case the server does not build or refuses is not loaded. */
async function probeCase(base: string, token: string, spec: CaseSpec): Promise<CaseResult> {
  await spec.prepare?.(base, token);
  const headers = caseHeaders(spec, token);
  const first = spec.next();
  const result: CaseResult = {
    name: spec.name,
    kind: spec.kind,
    method: spec.method,
    example: first.path,
    status: "ran",
  };
  const probe = await fetch(`${base}${first.path}`, {
    method: spec.method,
    headers: { ...headers, ...first.headers },
    body: first.body,
  });
  const probeText = await probe.text();
  if (probe.status === 501)
    return { ...result, status: "not_built", note: "the server answers 501 not_implemented" };
  if (spec.method === "GET" && probe.ok)
    result.bytes = await wireBytes(`${base}${first.path}`, { ...headers, ...first.headers });
  if (!probe.ok && probe.status !== spec.expectStatus)
    return {
      ...result,
      status: "failed",
      note: `probe answered ${probe.status}: ${probeText.slice(0, 300)}`,
    };
  return result;
}

/**
 * The bytes a read puts on the wire (headers excluded): as sent plain, in gzip, in brotli, and as the 304
 * that its own ETag gets (the contract's "Compression" and "Conditional requests"). Read with node:http,
 * which, unlike fetch, leaves the body as it came.
 */
async function wireBytes(url: string, headers: Record<string, string>): Promise<WireBytes> {
  const size = (extra: Record<string, string>) =>
    new Promise<{ bytes: number; etag: string | undefined }>((resolve, reject) => {
      const req = http.get(url, { headers: { ...headers, ...extra } }, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on("end", () => resolve({ bytes, etag: res.headers.etag }));
      });
      req.on("error", reject);
    });
  const plain = await size({ "accept-encoding": "identity", "if-none-match": "" });
  return {
    identity: plain.bytes,
    gzip: (await size({ "accept-encoding": "gzip", "if-none-match": "" })).bytes,
    br: (await size({ "accept-encoding": "br", "if-none-match": "" })).bytes,
    notModified: plain.etag ? (await size({ "if-none-match": plain.etag })).bytes : plain.bytes,
  };
}

/** The case's result from its legs on the server, with its targets. */
function caseResult(spec: CaseSpec, probed: CaseResult, legs: Leg[]): CaseResult {
  const c = combineLegs(legs);
  const rps = c.requestsPerSec;
  const targets =
    spec.kind === "read"
      ? [
          {
            name: "p99",
            target: `< ${TARGETS.readP99Ms} ms`,
            value: c.p99Ms,
            met: c.p99Ms < TARGETS.readP99Ms,
          },
          { name: "req/s", target: `> ${TARGETS.readRps}`, value: rps, met: rps > TARGETS.readRps },
        ]
      : spec.issuesPerRequest || spec.kind === "write"
        ? [] // an import case: reported (issues a second), not held to the single-create target
        : [{ name: "req/s", target: `> ${TARGETS.createRps}`, value: rps, met: rps > TARGETS.createRps }];
  const ok = !c.failure;
  return {
    ...probed,
    requestsPerSec: Math.round(rps),
    ...(spec.kind === "create" ? { issuesPerSec: Math.round(rps * (spec.issuesPerRequest ?? 1)) } : {}),
    p50Ms: c.p50Ms,
    p99Ms: c.p99Ms,
    requests: c.requests,
    non2xx: c.non2xx,
    errors: c.errors + c.timeouts,
    cpu: c.cpu,
    targets: ok ? targets : targets.map((t) => ({ ...t, met: false })),
    ...(c.failure ? { note: c.failure } : {}),
  };
}

async function runCase(base: string, token: string, serverPid: number, spec: CaseSpec): Promise<CaseResult> {
  const probed = await probeCase(base, token, spec);
  if (probed.status !== "ran") return probed;
  return caseResult(spec, probed, [await runLeg(base, token, serverPid, spec, DURATION, WARMUP)]);
}

/**
 * A read on the server and on the floor (bench/floor.ts) in alternating legs (`LEG_ORDER`): drift over the
 * case (the machine's other work, caches warming, what the previous case left behind) then falls on both
 * sides alike, where a server run followed by a floor run gave it all to one side (the single read's ratio
 * moved between 0.58 and 0.97 over runs of the same code). Each side warms up before its first leg.
 * First checks that both answer the case's next path with the same body, so the floor is known to do the
 * server's work.
 */
async function runReadWithFloor(
  base: string,
  floorBase: string,
  token: string,
  serverPid: number,
  floorPid: number,
  spec: CaseSpec,
): Promise<CaseResult> {
  const probed = await probeCase(base, token, spec);
  if (probed.status !== "ran") return probed;
  const { path: probePath } = spec.next();
  const headers = caseHeaders(spec, token);
  const [a, b] = await Promise.all(
    [base, floorBase].map(async (u) => (await fetch(`${u}${probePath}`, { headers })).text()),
  );
  // A read over every seeded identifier once before any leg: at 1,000,000 issues they are ~10,000 issues'
  // pages, comments and relations, more than a warm-up reaches, and the first leg would otherwise read
  // them cold from the OS while the others found them in PostgreSQL's buffers.
  if (spec.distinct) await load(base, token, spec, { amount: spec.distinct });
  const seconds = (2 * DURATION) / LEG_ORDER.length;
  const legs: { side: "server" | "floor"; leg: Leg }[] = [];
  const target = { server: { url: base, pid: serverPid }, floor: { url: floorBase, pid: floorPid } };
  for (const side of LEG_ORDER) {
    const warmup = legs.some((l) => l.side === side) ? 0 : WARMUP;
    legs.push({ side, leg: await runLeg(target[side].url, token, target[side].pid, spec, seconds, warmup) });
  }
  const of = (side: "server" | "floor") => legs.filter((l) => l.side === side).map((l) => l.leg);
  const server = caseResult(spec, probed, of("server"));
  const f = combineLegs(of("floor"));
  const floorRps = Math.round(f.requestsPerSec);
  const ratio = floorRps && server.requestsPerSec ? server.requestsPerSec / floorRps : undefined;
  const notes = [f.failure, a === b ? undefined : `body differs from the server's for ${probePath}`].filter(
    Boolean,
  );
  const legRps = (l: Leg) => Math.round(l.requests / l.seconds);
  server.floor = {
    requestsPerSec: floorRps,
    p50Ms: f.p50Ms,
    p99Ms: f.p99Ms,
    cpu: f.cpu,
    ...(ratio !== undefined ? { ratio: Math.round(ratio * 100) / 100 } : {}),
    legs: legs.map((l) => legRps(l.leg)),
    sameBody: a === b,
    ...(notes.length ? { note: notes.join("; ") } : {}),
  };
  return server;
}

function markdown(report: Report): string {
  const yes = (met: boolean) => (met ? "met" : "**missed**");
  const lines = [
    "# Benchmark results",
    "",
    `Generated by \`npm run bench\` at ${report.generatedAt} on ${report.machine.cpus} CPUs ` +
      `(${report.machine.cpuModel}), Node ${report.machine.node}. Server: \`NODE_ENV=production node --max-old-space-size=1024 dist/main.js\` (as \`npm start\`) ` +
      `as a child process; load: autocannon in the bench process, ${report.connections} connections, ` +
      `${report.durationSeconds} s per case after a ${report.warmupSeconds} s warm-up; a read with a floor runs in ${LEG_ORDER.length} legs of ` +
      `${(2 * report.durationSeconds) / LEG_ORDER.length} s, server (S) and floor (F) in the order ${LEGS_TEXT}, each side's first leg after ` +
      `the warm-up, the single-issue reads after one read of every seeded identifier. Database: ${report.database}. ` +
      `Load average (1 min) before/after: ${report.machine.loadAverageBefore[0]} / ${report.machine.loadAverageAfter[0]} ` +
      "(other work on the machine skews the numbers).",
    "",
    `Seed: ${Object.entries(report.seed.counts)
      .map(([k, v]) => `${v.toLocaleString("en-US")} ${k}`)
      .join(", ")} in ${report.seed.seconds.toFixed(1)} s.`,
    "",
    `| case | status | req/s | p50 ms | p99 ms | CPU ms/req: server / PG / load | floor req/s (legs ${LEGS_TEXT}) | server / floor | floor CPU ms/req: floor / PG / load | targets |`,
    "|---|---|---:|---:|---:|---|---:|---:|---|---|",
  ];
  for (const c of report.cases) {
    const targets = [
      ...(c.targets?.map((t) => `${t.name} ${t.target}: ${yes(t.met)}`) ?? (c.note ? [c.note] : [])),
      ...(c.issuesPerSec !== undefined ? [`${c.issuesPerSec.toLocaleString("en-US")} issues/s`] : []),
      ...(c.floor?.ratio !== undefined
        ? [`server / floor >= ${TARGETS.floorShare}: ${yes(c.floor.ratio >= TARGETS.floorShare)}`]
        : []),
      ...(c.floor?.note ? [`floor: ${c.floor.note}`] : []),
    ].join("; ");
    lines.push(
      `| ${c.name} | ${c.status === "ran" ? "ran" : c.status === "not_built" ? "not built (501)" : "failed"} | ` +
        `${c.requestsPerSec ?? "-"} | ${c.p50Ms ?? "-"} | ${c.p99Ms ?? "-"} | ` +
        `${c.cpu ? `${c.cpu.serverMs} / ${c.cpu.postgresMs} / ${c.cpu.loadGeneratorMs}` : "-"} | ` +
        `${c.floor?.requestsPerSec ?? "-"}${c.floor?.legs ? ` (legs ${c.floor.legs.join(" / ")})` : ""} | ${c.floor?.ratio?.toFixed(2) ?? "-"} | ` +
        `${c.floor?.cpu ? `${c.floor.cpu.serverMs} / ${c.floor.cpu.postgresMs} / ${c.floor.cpu.loadGeneratorMs}` : "-"} | ${targets}${c.status === "ran" && c.note ? ` (${c.note})` : ""} |`,
    );
  }
  const measured = report.cases.filter((c) => c.bytes);
  if (measured.length) {
    const kb = (b: number) => (b / 1024).toFixed(1);
    lines.push(
      "",
      "### Bytes on the wire",
      "",
      "The body of each read's first request as sent plain, in gzip, in brotli (answers above 1 KiB), and as the 304 its own ETag gets; KiB.",
      "",
      "| case | plain | gzip | brotli | 304 |",
      "|---|---:|---:|---:|---:|",
      ...measured.map(
        (c) =>
          `| ${c.name} | ${kb(c.bytes!.identity)} | ${kb(c.bytes!.gzip)} | ${kb(c.bytes!.br)} | ${kb(c.bytes!.notModified)} |`,
      ),
    );
  }
  if (report.sizes.length > 1) {
    const [small, big] = [report.sizes[0]!, report.sizes.at(-1)!];
    const n = (x: number) => x.toLocaleString("en-US");
    lines.push(
      "",
      `### ${n(small.issues)} and ${n(big.issues)} issues side by side`,
      "",
      `Each size in a database of its own, seeded in ${small.seedSeconds.toFixed(0)} s and ${big.seedSeconds.toFixed(0)} s. ` +
        `Target: every case keeps its throughput at ${n(big.issues)} within 20% of its figure at ${n(small.issues)}.`,
      "",
      `| case | req/s at ${n(small.issues)} | req/s at ${n(big.issues)} | ratio | p99 ms at ${n(small.issues)} | p99 ms at ${n(big.issues)} | within 20% |`,
      "|---|---:|---:|---:|---:|---:|---|",
    );
    for (const c of big.cases) {
      const before = small.cases.find((x) => x.name === c.name);
      const ratio =
        before?.requestsPerSec && c.requestsPerSec ? c.requestsPerSec / before.requestsPerSec : Number.NaN;
      lines.push(
        `| ${c.name} | ${before?.requestsPerSec ?? "-"} | ${c.requestsPerSec ?? "-"} | ` +
          `${Number.isFinite(ratio) ? ratio.toFixed(2) : "-"} | ${before?.p99Ms ?? "-"} | ${c.p99Ms ?? "-"} | ` +
          `${Number.isFinite(ratio) ? yes(ratio >= 0.8) : "-"} |`,
      );
    }
    lines.push(
      "",
      `Server peak RSS: ${small.peakRssMb} MB at ${n(small.issues)}, ${big.peakRssMb} MB at ${n(big.issues)}.`,
    );
  }
  lines.push(
    "",
    `Server peak RSS (VmHWM): ${report.rss.peakMb.toFixed(0)} MB, target < ${TARGETS.rssMb} MB: ${yes(report.rss.met)}.`,
    "",
    "Targets (2-core machine): every read p99 < 50 ms and > 1,000 req/s; create > 500 req/s; RSS < 300 MB;",
    "every read at least 75% of the floor's req/s: the same case on plain `node:http` + `pg` running the",
    "server's own handlers and statements without the framework around them (bench/floor.ts, README.md).",
    "The load generator shares the two cores with the server and PostgreSQL, so the numbers are a floor.",
    "Query plans of every list shape: PLANS.md; index notes: README.md.",
  );
  if (report.memory) lines.push(...memoryMarkdown(report.memory, TARGETS.rssMb));
  lines.push("");
  if (report.events) lines.push(...eventsMarkdown(report.events));
  if (report.operations) lines.push(...operationsMarkdown(report.operations, report.issues));
  return lines.join("\n");
}

interface Report {
  generatedAt: string;
  machine: {
    cpus: number;
    cpuModel: string;
    node: string;
    loadAverageBefore: number[];
    loadAverageAfter: number[];
  };
  database: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  seed: { counts: Record<string, number>; seconds: number };
  cases: CaseResult[];
  rss: { peakMb: number; targetMb: number; met: boolean };
  /** The server's memory after each case and operation at the biggest size (bench/memory.ts). */
  memory?: MemoryStep[];
  targets: typeof TARGETS;
  /** The live event stream case (bench/events.ts), run last with its own RSS measurement. */
  events?: EventsCaseResult;
  /** Every operation of the contract, at the biggest size (bench/operations.ts). */
  operations?: OperationResult[];
  issues: number;
  /** Every size run (one, or 100,000 and the size asked for), for the side-by-side table. */
  sizes: { issues: number; seedSeconds: number; cases: CaseResult[]; peakRssMb: number }[];
}

/** What one size's run measured. */
interface SizeRun {
  issues: number;
  seeded: Seeded;
  planningSeconds: number;
  planningCounts: Record<string, number>;
  plans: PlanReport[];
  cases: CaseResult[];
  peakRssMb: number;
  /** The server's memory after each case and operation (bench/memory.ts). */
  memory?: MemoryStep[];
  events?: EventsCaseResult;
  /** Every operation of the contract, once (bench/operations.ts). */
  operations?: OperationResult[];
}

let server: ChildProcess | undefined;
let floor: ChildProcess | undefined;
/** The server's data folder (its attachments), removed with it. */
let attachmentsDir: string | undefined;

async function stopServer(): Promise<void> {
  const children = [server, floor];
  server = undefined;
  floor = undefined;
  await Promise.all(children.map(stopChild));
  if (attachmentsDir) rmSync(attachmentsDir, { recursive: true, force: true });
  attachmentsDir = undefined;
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  child.kill("SIGTERM");
  await new Promise((r) => {
    const t = setTimeout(() => {
      child.kill("SIGKILL");
      r(undefined);
    }, 10_000);
    child.once("exit", () => {
      clearTimeout(t);
      r(undefined);
    });
  });
}

/** `--only a|b`: the cases whose name contains any of the parts. */
const onlyParts = args.only?.split("|");
const selected = (name: string) => !onlyParts || onlyParts.some((part) => name.includes(part));

/** What a completed seed left in its database (`bench_seed`), for `--reuse`. */
interface SeedRecord {
  seeded: Seeded;
  planning: PlanningSeeded;
}

/**
 * The seed of an earlier run, when `databaseUrl`'s database holds one whose seed completed: the record is
 * written last, after the seed's own commits and the settling, so a half-seeded database has none.
 */
async function completedSeed(databaseUrl: string): Promise<SeedRecord | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      "select seeded, planning from bench_seed where to_regclass('bench_seed') is not null",
    );
    return rows[0] as SeedRecord | undefined;
  } catch {
    return undefined; // no bench_seed table: never completed
  } finally {
    await client.end();
  }
}

/**
 * Gives the bench workspace's recent issues of search back the state the seed left (`settleAfterLoad`): its
 * newest SEARCH_RECENT_ROWS issues, cut at the last of them. Earlier runs' servers pruned the table to their
 * write cases' issues, which `removeEarlierRunsIssues` deleted, leaving the cut past nearly every issue of the
 * seed; a search in `updated` order then found its words among the recent issues less often at one size
 * than at the other, depending only on what earlier runs had done (the `q` case at 1,000,000: 284 against
 * 327 req/s on the same code).
 */
async function restoreSearchRecent(client: pg.Client, workspaceId: string): Promise<void> {
  await client.query("begin");
  try {
    await client.query(FILL_SEARCH_RECENT, [workspaceId, 3 * SEARCH_RECENT_ROWS]);
    // Every issue updated since the fill's cut is now there; the prune raises the cut to the last one it keeps.
    await client.query(
      `update issue_search_recent_since
          set since = coalesce((select updated_at from issues where workspace_id = $1
                                 order by updated_at desc offset $2 limit 1), '-infinity')
        where workspace_id = $1`,
      [workspaceId, 3 * SEARCH_RECENT_ROWS],
    );
    await client.query("select tracker_search_recent_prune($1)", [SEARCH_RECENT_ROWS]);
    await client.query("commit");
  } catch (e) {
    await client.query("rollback");
    throw e;
  }
}

async function recordSeed(databaseUrl: string, record: SeedRecord): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      "create table if not exists bench_seed (seeded jsonb not null, planning jsonb not null, recorded_at timestamptz not null default now())",
    );
    await client.query("insert into bench_seed (seeded, planning) values ($1, $2)", [
      JSON.stringify(record.seeded),
      JSON.stringify(record.planning),
    ]);
  } finally {
    await client.end();
  }
}

/**
 * Deletes the issues created after the seed was recorded (by earlier runs' create and import cases), with
 * what hangs off them, so a reused seed is explained and loaded as it was seeded: the newest issues by
 * `updated` are the seed's, not a run's bench titles that no search matches. Issues those cases updated
 * (the events case) keep their new `updated_at`. A record from before `recorded_at` existed removes nothing.
 */
async function removeEarlierRunsIssues(client: pg.Client): Promise<number> {
  await client.query("alter table bench_seed add column if not exists recorded_at timestamptz");
  const { rowCount } = await client.query(
    "delete from issues where created_at > (select recorded_at from bench_seed limit 1)",
  );
  return rowCount ?? 0;
}

/**
 * Deletes what earlier runs' every-operation recipes (bench/recipes.ts) made besides issues, by the names
 * they give it (`Ops …`, `ops-…`, `ops …`), so a reused seed's labels, views, keys and projects are loaded as
 * seeded (`GET /api-keys` had grown to 12 ms of server CPU a request after a few runs). Each kind on its own,
 * a failure logged and not fatal. Rows removed.
 */
async function removeEarlierRunsOperations(client: pg.Client, workspaceId: string): Promise<number> {
  const statements: [string, string][] = [
    ["workspaces", "delete from workspaces where name like 'Ops %' and id <> $1"],
    ["teams", "delete from teams where workspace_id = $1 and name like 'Ops %'"],
    ["labels", "delete from labels where workspace_id = $1 and name like 'ops-%'"],
    ["views", "delete from saved_views where workspace_id = $1 and name like 'Ops %'"],
    ["view defaults", "delete from view_defaults where workspace_id = $1 and view_key like 'ops:%'"],
    [
      "documents",
      "delete from documents where workspace_id = $1 and (title like 'Ops %' or title like 'Gone %')",
    ],
    ["projects", "delete from projects where workspace_id = $1 and name like 'Ops %'"],
    ["initiatives", "delete from initiatives where workspace_id = $1 and name like 'Ops %'"],
    ["status updates", "delete from status_updates where workspace_id = $1 and title like 'Ops %'"],
    ["API keys", "delete from api_keys where workspace_id = $1 and name like 'ops %'"],
    ["invites", "delete from invites where workspace_id = $1 and email like 'ops-%@bench.test'"],
    [
      "webhooks",
      "delete from webhook_endpoints where workspace_id = $1 and url like 'http://127.0.0.1:%/hook/%'",
    ],
    ["users", "delete from users where email like 'ops-%@bench.test'"],
  ];
  let removed = 0;
  for (const [kind, text] of statements) {
    try {
      removed += (await client.query(text, text.includes("$1") ? [workspaceId] : [])).rowCount ?? 0;
    } catch (err) {
      log(`could not remove earlier runs' ${kind}: ${(err as Error).message}`);
    }
  }
  return removed;
}

/** Seeds one size into `databaseUrl` (or reuses its completed seed), explains the list shapes, then loads the built server on it. */
async function runSize(databaseUrl: string, issues: number, last: boolean): Promise<SizeRun> {
  const reused = args.reuse ? await completedSeed(databaseUrl) : undefined;
  // Opening the ORM runs the migrations, so a reused database gets the schema of the code under test.
  const orm = await openOrm(databaseUrl);
  let seeded: Seeded;
  let planning: PlanningSeeded | undefined;
  if (reused) {
    ({ seeded, planning } = reused);
    log(
      `reusing the seed of ${issues.toLocaleString("en-US")} issues (seeded in ${seeded.seconds.toFixed(1)} s, ` +
        `planning ${planning.seconds.toFixed(1)} s): ${JSON.stringify(seeded.counts)}`,
    );
    const started = Date.now();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const removed = await removeEarlierRunsIssues(client);
      if (removed) log(`removed ${removed.toLocaleString("en-US")} issues earlier runs' write cases added`);
      const made = await removeEarlierRunsOperations(client, seeded.workspaceId);
      if (made) log(`removed ${made.toLocaleString("en-US")} rows earlier runs' operations made`);
      await restoreSearchRecent(client, seeded.workspaceId);
      await client.query("vacuum (analyze)");
    } finally {
      await client.end();
    }
    log(`vacuumed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } else {
    log(`seeding ${issues.toLocaleString("en-US")} issues...`);
    seeded = await seedBench(orm.em.fork(), databaseUrl, { ...DEFAULT_SIZES, issues });
    log(`seeded in ${seeded.seconds.toFixed(1)} s: ${JSON.stringify(seeded.counts)}`);
    // `--only events` needs no planning workspace: its seeding is most of a short run.
    const eventsOnly = onlyParts?.every((part) => EVENTS_CASE.includes(part)) ?? false;
    planning = eventsOnly ? undefined : await seedPlanningBench(orm.em.fork(), databaseUrl);
    if (planning)
      log(`seeded planning in ${planning.seconds.toFixed(1)} s: ${JSON.stringify(planning.counts)}`);
    log(`vacuumed and settled after the load in ${(await settleAfterLoad(databaseUrl)).toFixed(1)} s`);
    // Only a whole seed (with its planning workspace) is recorded for --reuse.
    if (planning) await recordSeed(databaseUrl, { seeded, planning });
  }
  const run: SizeRun = {
    issues,
    seeded,
    planningSeconds: planning?.seconds ?? 0,
    planningCounts: planning?.counts ?? {},
    plans: [],
    cases: [],
    peakRssMb: 0,
  };

  mkdirSync(outDir, { recursive: true });
  if (!args["skip-explain"]) {
    run.plans = await explainListShapes(orm.em.fork(), seeded);
    const slow = run.plans.filter((p) => p.ms > 10);
    log(
      `explained ${run.plans.length} list shapes at ${issues.toLocaleString("en-US")}; slowest: ${[
        ...run.plans,
      ]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 3)
        .map((p) => `${p.name} ${p.ms.toFixed(1)} ms`)
        .join(", ")}${slow.length ? `; ${slow.length} over 10 ms` : ""}`,
    );
    if (last && planning) {
      writeFileSync(path.join(outDir, "PROJECT_PLANS.md"), await explainPlanning(orm.em.fork(), planning));
      log("explained the project list shapes (PROJECT_PLANS.md)");
    }
  }
  await orm.close(true);
  if (args["explain-only"]) return run;

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // e.g. TRACKER_BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server.
  // The heap cap `npm start` gives the server (see main.ts), then any extra flags.
  const nodeArgs = [
    "--max-old-space-size=1024",
    ...(process.env.TRACKER_BENCH_SERVER_NODE_ARGS ?? "").split(/\s+/).filter(Boolean),
  ];
  // One socket per event stream: the server gets the hard open-files limit as its soft one (a shell
  // builtin; Node cannot raise its own), so `--streams 10000` is not cut short by a soft limit of 1,024.
  attachmentsDir = mkdtempSync(path.join(os.tmpdir(), "tracker-bench-files-"));
  server = spawn(
    "/bin/sh",
    ["-c", 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"', "sh", process.execPath, ...nodeArgs, mainJs],
    {
      env: {
        ...process.env,
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        TRACKER_RATE_LIMIT_PER_MINUTE: "0",
        // The operations' webhooks go to a receiver in the bench process, and single sign-on to a
        // provider there, on the loopback.
        TRACKER_OUTBOUND_ALLOW_PRIVATE: "1",
        // Where the operations' attachments are stored: not the checkout's `.tracker`.
        TRACKER_DATA_DIR: attachmentsDir,
      },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  await waitForHealth(base, server);
  log(`server pid ${server.pid} listening on ${base}`);
  // The floor (bench/floor.ts) on the same database, idle while the server is loaded and the other way round.
  const floorBase = `http://127.0.0.1:${await freePort()}`;
  // TRACKER_BENCH_FLOOR_NODE_ARGS: the same for the floor, to compare the two profiles.
  const floorArgs = (process.env.TRACKER_BENCH_FLOOR_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
  floor = spawn(process.execPath, ["--max-old-space-size=1024", ...floorArgs, floorJs], {
    env: { ...process.env, NODE_ENV: "production", DATABASE_URL: databaseUrl, PORT: new URL(floorBase).port },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitForHealth(floorBase, floor);
  log(`floor pid ${floor.pid} listening on ${floorBase}`);
  const pid = server.pid!;
  const memory = new MemoryTrail(pid);
  memory.mark("server started");

  const local = await localEndpoints();
  const ops = operationRecipes({ base, token: seeded.adminToken, seeded }, local.url);
  const contract = contractOperations(contractPath);
  const everyday = everydayCases(ops.recipes, contract.operations);
  if (everyday.some((c) => selected(c.name)) || selected("operation: ")) await ops.setup();
  for (const spec of [...cases(seeded), ...everyday, ...(planning ? planningCases(planning) : [])]) {
    if (!selected(spec.name)) continue;
    log(`case: ${spec.name}`);
    const r =
      spec.kind === "read" && spec.floor !== false
        ? await runReadWithFloor(base, floorBase, seeded.adminToken, pid, floor.pid!, spec)
        : await runCase(base, seeded.adminToken, pid, spec);
    run.cases.push(r);
    memory.mark(`case: ${spec.name}`);
    log(
      r.status === "ran"
        ? `  ${r.requestsPerSec} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms; CPU ms/request server ${r.cpu?.serverMs}, ` +
            `postgres ${r.cpu?.postgresMs}, load generator ${r.cpu?.loadGeneratorMs}${r.note ? ` (${r.note})` : ""}` +
            (r.floor
              ? `\n[bench]   floor ${r.floor.requestsPerSec} req/s (server / floor ${r.floor.ratio}; legs ${LEGS_TEXT}: ${r.floor.legs?.join(" / ")} req/s), p99 ${r.floor.p99Ms} ms; ` +
                `CPU ms/request floor ${r.floor.cpu?.serverMs}, postgres ${r.floor.cpu?.postgresMs}${r.floor.note ? ` (${r.floor.note})` : ""}`
              : "")
        : `  ${r.status}: ${r.note}`,
    );
  }
  if (last && selected("operation: ")) {
    log("case: every operation of the contract");
    run.operations = await runOperations({
      base,
      token: seeded.adminToken,
      pid,
      contractPath,
      recipes: ops.recipes,
      notLoaded: NOT_LOADED,
      selected,
      memory,
    });
  }
  await local.close();
  // Let requests still in flight when the last case stopped finish before the server is stopped.
  await new Promise((r) => setTimeout(r, 1000));
  // The high-water mark (VmHWM) holds the peak of everything before it: no sampling needed.
  run.peakRssMb = residentMb(pid)?.peak ?? 0;

  if (last && (!onlyParts || onlyParts.some((part) => EVENTS_CASE.includes(part)))) {
    log(`case: ${EVENTS_CASE}`);
    run.events = await runEventsCase({
      base,
      token: seeded.adminToken,
      databaseUrl,
      workspaceId: seeded.workspaceId,
      pid,
      streams: Number(args.streams),
      writesPerSecond: Number(args["event-rate"]),
      seconds: Number(args["event-seconds"]),
      clientThreads: args["client-threads"] ? Number(args["client-threads"]) : undefined,
    });
    log(`  ${eventsSummary(run.events)}`);
    memory.mark(`case: ${EVENTS_CASE}`);
  }
  run.memory = memory.steps;
  await stopServer();
  return run;
}

/**
 * A database of its own for each size, in the embedded cluster (a DATABASE_URL's holds them side by side).
 * With `--reuse`, an existing `bench_<N>` whose seed completed is kept; any other is made afresh.
 */
async function databaseFor(baseUrl: string, issues: number, own: boolean): Promise<string> {
  if (!own) return baseUrl;
  const name = `bench_${issues}`;
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const exists = (await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount;
    if (args.reuse && exists && (await completedSeed(url.toString()))) return url.toString();
    if (args.reuse) log(`no completed seed in ${name}: seeding it`);
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return url.toString();
}

async function main() {
  const started = Date.now();
  let tmp: string | undefined;
  let embedded: EmbeddedPostgres | undefined;
  const cleanup = async () => {
    await stopServer();
    await embedded?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  };
  process.once("SIGINT", () => {
    void cleanup().then(() => process.exit(130));
  });

  try {
    let baseUrl = process.env.DATABASE_URL;
    if (!baseUrl) {
      if (!args["data-dir"]) tmp = mkdtempSync(path.join(os.tmpdir(), "tracker-bench-"));
      const dataDir = tmp ? path.join(tmp, "pg") : path.resolve(args["data-dir"]!);
      // Durable, as users run it (`npm start`): fsync and synchronous commit on, so writes pay what they do there.
      embedded = await startEmbeddedPostgres({ dataDir, durable: true });
      baseUrl = embedded.url;
      log(`embedded PostgreSQL on port ${embedded.port}`);
    } else log("using DATABASE_URL");

    const loadAverageBefore = os.loadavg().map((l) => Math.round(l * 100) / 100);
    const runs: SizeRun[] = [];
    for (const [i, issues] of SIZES.entries()) {
      // `--reuse` needs the size's own database even for one size, as `--data-dir` keeps them.
      const own =
        embedded !== undefined && (SIZES.length > 1 || args.reuse || args["data-dir"] !== undefined);
      const databaseUrl = await databaseFor(baseUrl, issues, own);
      runs.push(await runSize(databaseUrl, issues, i === SIZES.length - 1));
    }
    const biggest = runs.at(-1)!;

    if (!args["skip-explain"]) writeFileSync(path.join(outDir, "PLANS.md"), plansMarkdown(runs));
    if (args["explain-only"]) return;

    const report: Report = {
      generatedAt: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? "unknown",
        node: process.version,
        loadAverageBefore,
        loadAverageAfter: os.loadavg().map((l) => Math.round(l * 100) / 100),
      },
      database: embedded ? "embedded PostgreSQL 18 (durable, as npm start runs it)" : "DATABASE_URL",
      connections: CONNECTIONS,
      durationSeconds: DURATION,
      warmupSeconds: WARMUP,
      seed: {
        counts: { ...biggest.seeded.counts, ...biggest.planningCounts },
        seconds: biggest.seeded.seconds + biggest.planningSeconds,
      },
      cases: biggest.cases,
      rss: {
        peakMb: Math.round(biggest.peakRssMb),
        targetMb: TARGETS.rssMb,
        met: biggest.peakRssMb < TARGETS.rssMb,
      },
      memory: biggest.memory,
      targets: TARGETS,
      events: biggest.events,
      operations: biggest.operations,
      issues: biggest.issues,
      sizes: runs.map((r) => ({
        issues: r.issues,
        seedSeconds: r.seeded.seconds,
        cases: r.cases,
        peakRssMb: Math.round(r.peakRssMb),
      })),
    };
    writeFileSync(path.join(outDir, "results.json"), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(path.join(outDir, "RESULTS.md"), markdown(report));
    process.stdout.write(markdown(report));
    log(
      `done in ${((Date.now() - started) / 1000).toFixed(0)} s; wrote bench/results.json and bench/RESULTS.md`,
    );
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  process.stderr.write(`[bench] failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
