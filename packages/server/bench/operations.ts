/**
 * Every operation of the contract, once per bench run (issue 38): the operations are read from `openapi.yaml`
 * at run time, and each is loaded for a short leg (`OPERATION_SECONDS`, `OPERATION_CONNECTIONS`) through the
 * recipe of `operationRecipes` (recipes.ts) that says what a request of it sends. An operation of the contract
 * with neither a recipe nor a reason in `NOT_LOADED` is reported as missing, in the log and in RESULTS.md,
 * so a new operation cannot go unmeasured unnoticed. Writes that consume their target (deletes, moves, sign
 * outs) get fresh targets made before their leg, and the leg sends as many requests as there are targets.
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { parse } from "yaml";
import { type CpuShare, cpuSnapshot, cpuSpent } from "./cpu.js";
import type { MemoryTrail } from "./memory.js";

/** Seconds each operation is loaded for, and the connections it is loaded with. */
export const OPERATION_SECONDS = 1;
export const OPERATION_CONNECTIONS = 2;

export interface ContractOperation {
  operationId: string;
  method: string;
  /** The path template, as written in the contract (`/issues/{identifier}`). */
  template: string;
  /** What the path is appended to: `/api/v1`, or nothing for an operation on the server's root. */
  prefix: string;
}

/** One request of an operation. */
export interface OperationRequest {
  /** Values of the template's `{…}` parameters. */
  params?: Record<string, string>;
  /** A query string, without the `?`. */
  query?: string;
  /** A JSON body (serialized), or raw bytes as a string with `contentType`. */
  body?: unknown;
  contentType?: string;
  /** Headers added to (or, with `auth: false`, sent instead of) the bearer key. */
  headers?: Record<string, string>;
  /** The whole path instead of the template (a signed download URL). */
  path?: string;
}

export interface OperationRecipe {
  /** Makes what the requests need before the probe (fresh targets for the ones that consume them). */
  prepare?: () => Promise<void>;
  next: () => OperationRequest;
  /** When each request consumes a target: how many the leg sends (the probe takes one more). */
  amount?: () => number;
  /** Whether the bench's key is sent (not for the sign-in, the cookie's requests or signed deliveries). */
  auth?: false;
  /** Only the probe runs: the operation flips one state (connect, disconnect), so a second call differs. */
  once?: string;
}

export interface OperationResult {
  operationId: string;
  method: string;
  path: string;
  status: "ran" | "once" | "not_loaded" | "missing" | "failed" | "not_built";
  note?: string;
  requestsPerSec?: number;
  p50Ms?: number;
  p99Ms?: number;
  requests?: number;
  non2xx?: number;
  cpu?: CpuShare;
}

/** The operations of `contractPath` (its `paths`) and its outgoing `webhooks`, in the contract's order. */
export function contractOperations(contractPath: string): {
  operations: ContractOperation[];
  outgoing: string[];
} {
  const doc = parse(readFileSync(contractPath, "utf8")) as {
    servers?: { url: string }[];
    paths: Record<string, Record<string, { operationId?: string; servers?: { url: string }[] }>>;
    webhooks?: Record<string, Record<string, { operationId?: string }>>;
  };
  const prefixOf = (servers: { url: string }[] | undefined) =>
    new URL(servers?.[0]?.url ?? "http://localhost/").pathname.replace(/\/$/, "");
  const operations: ContractOperation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const pathServers = (item as { servers?: { url: string }[] }).servers;
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== "object" || !("operationId" in op) || !op.operationId) continue;
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        template,
        prefix: prefixOf(op.servers ?? pathServers ?? doc.servers),
      });
    }
  }
  const outgoing = Object.values(doc.webhooks ?? {}).flatMap((item) =>
    Object.values(item).flatMap((op) => (op?.operationId ? [op.operationId] : [])),
  );
  return { operations, outgoing };
}

/** The path a request of `op` goes to. */
export function requestPath(op: ContractOperation, r: OperationRequest): string {
  if (r.path) return r.path;
  const filled = op.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = r.params?.[name];
    if (value === undefined) throw new Error(`${op.operationId}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  return `${op.prefix}${filled}${r.query ? `?${r.query}` : ""}`;
}

function requestInit(token: string, recipe: OperationRecipe, r: OperationRequest) {
  const raw = r.contentType !== undefined;
  const headers: Record<string, string> = {
    ...(recipe.auth === false ? {} : { authorization: `Bearer ${token}` }),
    ...(r.body !== undefined ? { "content-type": r.contentType ?? "application/json" } : {}),
    ...r.headers,
  };
  const body = r.body === undefined ? undefined : raw ? String(r.body) : JSON.stringify(r.body);
  return { headers, body };
}

const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

/**
 * Runs every operation of the contract against `base`: the recipe's preparation, one probe (a 501 is "not
 * built", any other refusal fails the operation with its answer), then a leg of `OPERATION_SECONDS` or of
 * the recipe's `amount` requests. Operations in `notLoaded` are listed with their reason; operations with
 * neither a recipe nor a reason are reported missing.
 */
export async function runOperations(opts: {
  base: string;
  token: string;
  pid: number;
  contractPath: string;
  recipes: Record<string, OperationRecipe>;
  notLoaded: Record<string, string>;
  selected: (name: string) => boolean;
  /** Read after each operation's leg, to say which one raised the server's memory. */
  memory?: MemoryTrail;
}): Promise<OperationResult[]> {
  const { operations, outgoing } = contractOperations(opts.contractPath);
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const results: OperationResult[] = [];
  const unknown = Object.keys(opts.recipes).filter((id) => !byId.has(id));
  if (unknown.length) log(`recipes for operations the contract no longer has: ${unknown.join(", ")}`);
  // The recipes' order (creates before the reads of what they made, deletes last), then the rest.
  const order = [
    ...Object.keys(opts.recipes).flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
    ...operations.filter((op) => !opts.recipes[op.operationId]),
  ];
  for (const op of order) {
    const name = `operation: ${op.operationId}`;
    if (!opts.selected(name) && !opts.selected("operation:")) continue;
    const base: OperationResult = {
      operationId: op.operationId,
      method: op.method,
      path: op.template,
      status: "ran",
    };
    const recipe = opts.recipes[op.operationId];
    const reason = opts.notLoaded[op.operationId];
    if (!recipe) {
      results.push(
        reason
          ? { ...base, status: "not_loaded", note: reason }
          : {
              ...base,
              status: "missing",
              note: "no recipe in bench/recipes.ts and no reason not to load it",
            },
      );
      continue;
    }
    try {
      const r = await runOperation(opts.base, opts.token, opts.pid, op, recipe);
      results.push({ ...base, ...r });
      log(
        `  ${op.operationId}: ${r.status}${r.requestsPerSec !== undefined ? ` ${r.requestsPerSec} req/s, p99 ${r.p99Ms} ms` : ""}${r.note ? ` (${r.note})` : ""}`,
      );
    } catch (err) {
      results.push({ ...base, status: "failed", note: String((err as Error).message ?? err).slice(0, 300) });
      log(`  ${op.operationId}: failed: ${(err as Error).message}`);
    }
    opts.memory?.mark(name);
  }
  for (const id of outgoing)
    results.push({
      operationId: id,
      method: "POST",
      path: "(outgoing webhook)",
      status: "not_loaded",
      note: "sent by the server to registered endpoints, not served: measured by `npm run bench:webhooks`",
    });
  const missing = results.filter((r) => r.status === "missing").map((r) => r.operationId);
  if (missing.length) log(`OPERATIONS NOT RUN (no recipe): ${missing.join(", ")}`);
  const failed = results.filter((r) => r.status === "failed").map((r) => r.operationId);
  if (failed.length) log(`operations that failed: ${failed.join(", ")}`);
  return results;
}

async function runOperation(
  base: string,
  token: string,
  pid: number,
  op: ContractOperation,
  recipe: OperationRecipe,
): Promise<Omit<OperationResult, "operationId" | "method" | "path">> {
  await recipe.prepare?.();
  const first = recipe.next();
  const init = requestInit(token, recipe, first);
  const started = performance.now();
  const probe = await fetch(`${base}${requestPath(op, first)}`, { method: op.method, ...init });
  const text = await probe.text();
  const probeMs = Math.round((performance.now() - started) * 10) / 10;
  if (probe.status === 501) return { status: "not_built", note: "the server answers 501 not_implemented" };
  if (!probe.ok) return { status: "failed", note: `probe answered ${probe.status}: ${text.slice(0, 240)}` };
  if (recipe.once) return { status: "once", p50Ms: probeMs, p99Ms: probeMs, requests: 1, note: recipe.once };
  const amount = recipe.amount?.();
  if (amount === 0)
    return { status: "once", p50Ms: probeMs, p99Ms: probeMs, requests: 1, note: "no targets left" };
  const before = cpuSnapshot(pid);
  const r = await autocannon({
    url: base,
    connections: Math.min(OPERATION_CONNECTIONS, amount ?? OPERATION_CONNECTIONS),
    ...(amount !== undefined ? { amount } : { duration: OPERATION_SECONDS }),
    requests: [
      {
        method: op.method as "GET",
        setupRequest: (req: { path?: string; body?: string; headers?: Record<string, string> }) => {
          const n = recipe.next();
          const i = requestInit(token, recipe, n);
          req.path = requestPath(op, n);
          req.headers = i.headers;
          if (i.body !== undefined) req.body = i.body;
          return req;
        },
      },
    ],
  });
  const spent = cpuSpent(before, cpuSnapshot(pid));
  const requests = r.requests.total;
  const per = (ms: number) => Math.round((ms / Math.max(1, requests)) * 100) / 100;
  const failures = r.non2xx + r.errors + r.timeouts;
  return {
    status: failures && failures >= requests ? "failed" : "ran",
    requestsPerSec: Math.round(requests / Math.max(1e-9, r.duration)),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests,
    non2xx: r.non2xx,
    cpu: { serverMs: per(spent.server), postgresMs: per(spent.postgres), loadGeneratorMs: per(spent.bench) },
    ...(failures ? { note: `${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts` } : {}),
  };
}

/** The table of RESULTS.md: every operation, what it measured or why not. */
export function operationsMarkdown(results: OperationResult[], issues: number): string[] {
  const missing = results.filter((r) => r.status === "missing");
  const failed = results.filter((r) => r.status === "failed");
  const ran = results.filter((r) => r.status === "ran" || r.status === "once");
  const lines = [
    "",
    "## Every operation",
    "",
    `Each operation of \`openapi.yaml\` (read from it at run time) at ${issues.toLocaleString("en-US")} issues, ` +
      `in the bench workspace: ${OPERATION_CONNECTIONS} connections for ${OPERATION_SECONDS} s, or, for an operation ` +
      "that consumes its target (a delete, a move, a sign-out), as many requests as targets were made for it " +
      "before its leg (bench/operations.ts, bench/recipes.ts). A figure from one second on a shared machine is a " +
      "smoke test and an order of magnitude, not a throughput to compare; the everyday operations have full cases above.",
    "",
    `${ran.length} of ${results.length} ran; ${failed.length} failed; ${results.filter((r) => r.status === "not_loaded").length} not loaded (reason given).`,
  ];
  if (missing.length)
    lines.push(
      "",
      `**MISSING: ${missing.length} operation(s) of the contract have no recipe and were not run: ` +
        `${missing.map((m) => `\`${m.operationId}\``).join(", ")}.** Add them to bench/recipes.ts.`,
    );
  lines.push(
    "",
    "| operation | method, path | status | req/s | p50 ms | p99 ms | requests | CPU ms/req: server / PG / load | note |",
    "|---|---|---|---:|---:|---:|---:|---|---|",
  );
  for (const r of results) {
    const status =
      r.status === "missing"
        ? "**missing**"
        : r.status === "failed"
          ? "**failed**"
          : r.status.replace("_", " ");
    lines.push(
      `| \`${r.operationId}\` | ${r.method} ${r.path} | ${status} | ${r.requestsPerSec ?? "-"} | ${r.p50Ms ?? "-"} | ` +
        `${r.p99Ms ?? "-"} | ${r.requests ?? "-"} | ${r.cpu ? `${r.cpu.serverMs} / ${r.cpu.postgresMs} / ${r.cpu.loadGeneratorMs}` : "-"} | ` +
        `${(r.note ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ")} |`,
    );
  }
  return lines;
}
