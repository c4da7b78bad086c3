/**
 * Outbound webhooks under load (`npm run bench:webhooks -w @tracker/server`): the built server, as
 * `npm start` runs it, with 100 endpoints registered on local receivers (each its own port, as distinct
 * hosts would be), while issues are created at a steady rate. Measures the deliveries a second and the delay
 * from a create's acknowledgement (its commit) to each endpoint receiving its `issue.created`, p50 and p99,
 * for the endpoints that answer at once and, apart, for one that answers only after 5 s: the slow one must not
 * delay the others. Bounded in count and time; loopback only. Options: `--endpoints 100 --rate 20 --seconds 10
 * --slow 1 --slow-ms 5000 --concurrency N`.
 */

import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startBuiltServer } from "./built-server.js";

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ENDPOINTS = opt("endpoints", 100);
const RATE = opt("rate", 20);
const SECONDS = opt("seconds", 10);
const SLOW = opt("slow", 1);
const SLOW_MS = opt("slow-ms", 5000);
/** The server's TRACKER_WEBHOOKS_CONCURRENCY (attempts in flight); its default when absent. */
const CONCURRENCY = args.includes("--concurrency") ? String(opt("concurrency", 32)) : undefined;
const DRAIN_LIMIT_MS = 120_000;

interface Receipt {
  endpoint: number;
  identifier: string;
  at: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function startReceivers(receipts: Receipt[]): Promise<{ servers: http.Server[]; urls: string[] }> {
  const servers: http.Server[] = [];
  const urls: string[] = [];
  for (let e = 0; e < ENDPOINTS; e++) {
    const slow = e < SLOW;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const at = performance.now();
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          type: string;
          data: { identifier?: string };
        };
        if (body.type === "issue.created" && body.data.identifier)
          receipts.push({ endpoint: e, identifier: body.data.identifier, at });
        const answer = () => res.end("ok");
        if (slow) setTimeout(answer, SLOW_MS);
        else answer();
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
  }
  return { servers, urls };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tracker-bench-webhooks-"));
  const receipts: Receipt[] = [];
  const { servers, urls } = await startReceivers(receipts);
  const server = await startBuiltServer(path.join(dir, "data"), {
    TRACKER_WEBHOOKS_ALLOW_PRIVATE: "1",
    ...(CONCURRENCY ? { TRACKER_WEBHOOKS_CONCURRENCY: CONCURRENCY } : {}),
  });
  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${p}`, {
      method,
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  try {
    const teams = (await api("GET", "/teams")) as { teams: { key: string }[] };
    const team = teams.teams[0]!.key;
    for (const url of urls) await api("POST", "/webhooks", { url, events: ["issue.created"] });

    // Creates at a steady rate; each acknowledgement is the commit the delay is measured from.
    const acked = new Map<string, number>();
    const total = RATE * SECONDS;
    const started = performance.now();
    const creates: Promise<void>[] = [];
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      creates.push(
        api("POST", "/issues", { team, title: `Webhook bench ${n}` }).then((out) => {
          acked.set((out.issue as { identifier: string }).identifier, performance.now());
        }),
      );
    }
    await Promise.all(creates);
    const writeEnd = performance.now();
    const fast = ENDPOINTS - SLOW;
    const expectedFast = total * fast;
    const deadline = Date.now() + DRAIN_LIMIT_MS;
    const fastReceipts = () => receipts.filter((r) => r.endpoint >= SLOW);
    while (fastReceipts().length < expectedFast && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const fastDone = performance.now();
    const delays = (rs: Receipt[]) =>
      rs
        .map((r) => r.at - acked.get(r.identifier)!)
        .filter((d) => Number.isFinite(d))
        .sort((a, b) => a - b);
    const fastDelays = delays(fastReceipts());
    const slowDelays = delays(receipts.filter((r) => r.endpoint < SLOW));
    const firstAt = Math.min(...receipts.map((r) => r.at));
    const lastFast = Math.max(...fastReceipts().map((r) => r.at));
    const lines = [
      `webhooks bench: ${ENDPOINTS} endpoints (${SLOW} answering after ${SLOW_MS} ms), ${total} creates at ${RATE}/s over ${SECONDS} s`,
      `  creates acknowledged: ${acked.size} in ${((writeEnd - started) / 1000).toFixed(1)} s`,
      `  deliveries to the ${fast} prompt endpoints: ${fastReceipts().length}/${expectedFast}` +
        ` in ${((lastFast - firstAt) / 1000).toFixed(1)} s = ${Math.round(fastReceipts().length / ((lastFast - firstAt) / 1000))}/s` +
        ` (all received ${((fastDone - writeEnd) / 1000).toFixed(1)} s after the last create)`,
      `  commit-to-delivery, prompt endpoints: p50 ${percentile(fastDelays, 50).toFixed(0)} ms, p99 ${percentile(fastDelays, 99).toFixed(0)} ms, max ${fastDelays.at(-1)?.toFixed(0)} ms`,
      `  commit-to-delivery, slow endpoint(s): ${slowDelays.length} received meanwhile, p50 ${percentile(slowDelays, 50).toFixed(0)} ms`,
    ];
    console.log(lines.join("\n"));
  } finally {
    await server.stop();
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
