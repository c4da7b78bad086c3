/**
 * The live event stream case of `npm run bench`: many open `GET /events` streams on one server instance
 * while changes are committed at a steady rate, measuring the delay from commit to delivery on every
 * stream and the server's resident memory. Clients are raw `http` requests on 127.0.0.1 (an EventSource
 * object per stream would weigh more than the server being measured), spread over worker threads
 * (bench/events-client.ts) so that parsing thousands of streams is not done on one core; everything is
 * bounded in count and time. Misses are reported, never fatal.
 */

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { openOrm } from "../src/db/orm.js";
import { sql, sqlOne } from "../src/db/sql.js";
import { q } from "../src/db/sql-fragment.js";
import { recordChanges } from "../src/events/record-change.query.js";
import { cpuSnapshot, cpuSpent } from "./cpu.js";
import { BUCKETS, type ClientWorkerData, type FromClient, type ToClient } from "./events-client.js";
import { rssNowMb } from "./memory.js";

export const EVENTS_CASE = "events: open streams, commit-to-delivery delay";
/** The issue's targets: p99 under 100 ms, and the server's RSS under 250 MB (its bound at 1M issues). */
export const EVENTS_TARGETS = { p99Ms: 100, rssMb: 250 };

export interface EventsCaseOptions {
  base: string;
  token: string;
  databaseUrl: string;
  workspaceId: string;
  /** The server's pid, for its resident memory. */
  pid: number;
  streams?: number;
  writesPerSecond?: number;
  seconds?: number;
  /** Worker threads the clients are spread over (default: the machine's cores). */
  clientThreads?: number;
}

export interface EventsCaseResult {
  name: string;
  status: "ran" | "not_built" | "failed";
  note?: string;
  streams: number;
  connected: number;
  writes: number;
  writesPerSecond: number;
  seconds: number;
  clientThreads: number;
  deliveries: number;
  expectedDeliveries: number;
  /** Streams the server ended during the case (it closes clients that fall too far behind). */
  streamsEnded: number;
  p50Ms?: number;
  p99Ms?: number;
  maxMs?: number;
  rssPeakMb?: number;
  /** Delay to the first stream that received each change: the server's part, before the fan-out. */
  firstDeliveryP50Ms?: number;
  firstDeliveryP99Ms?: number;
  /** Time between the first and the last stream receiving the same change (fan-out plus the clients' own work). */
  spreadP50Ms?: number;
  /** Server RSS before any stream opened. */
  rssIdleMb?: number;
  /** Server RSS with every stream open, before the writes. */
  rssBeforeMb?: number;
  /** (RSS with the streams open - idle RSS) / streams. */
  perStreamKb?: number;
  /** CPU cores in use during the writes: the server, PostgreSQL, and the bench process (client threads and writer). */
  cores?: { server: number; postgres: number; bench: number };
  /**
   * CPU ms per 1,000 deliveries from the first write until the last delivery (or the end of the wait for
   * stragglers): a figure that does not depend on how much of the cores others left the case.
   */
  cpuPerThousand?: { server: number; postgres: number; bench: number };
  /** The soft open-files limit of the bench process (its clients hold one socket per stream). */
  fdLimit?: number;
  targets?: { name: string; target: string; value: number; met: boolean }[];
}

/** Delays are counted in 0.1 ms buckets up to 60 s: exact enough percentiles without keeping millions of samples. */
class Histogram {
  readonly buckets = new Uint32Array(BUCKETS);
  count = 0;
  max = 0;
  add(ms: number): void {
    const b = Math.min(this.buckets.length - 1, Math.max(0, Math.round(ms * 10)));
    this.buckets[b]!++;
    this.count++;
    if (ms > this.max) this.max = ms;
  }
  merge(buckets: Uint32Array, count: number, max: number): void {
    for (let i = 0; i < buckets.length; i++) this.buckets[i]! += buckets[i]!;
    this.count += count;
    this.max = Math.max(this.max, max);
  }
  percentile(p: number): number {
    const rank = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i]!;
      if (seen >= rank) return i / 10;
    }
    return this.max;
  }
}

/** The soft "Max open files" of a process, or undefined when unlimited or unreadable. */
export function openFilesLimit(pid: number | "self" = "self"): number | undefined {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/limits`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.timeOrigin + performance.now();

interface ClientThread {
  worker: Worker;
  connected: number;
  report?: Extract<FromClient, { type: "report" }>;
  reported?: () => void;
}

function startClients(port: number, token: string, streams: number, threads: number): ClientThread[] {
  const clients: ClientThread[] = [];
  for (let t = 0; t < threads; t++) {
    const share = Math.floor(streams / threads) + (t < streams % threads ? 1 : 0);
    const data: ClientWorkerData = { port, token, streams: share };
    const client: ClientThread = {
      worker: new Worker(new URL("./events-client.js", import.meta.url), { workerData: data }),
      connected: 0,
    };
    client.worker.on("message", (msg: FromClient) => {
      if (msg.type === "connected") client.connected = msg.count;
      else {
        client.report = msg;
        client.reported?.();
      }
    });
    client.worker.on("error", (err) =>
      process.stderr.write(`[bench]   events client failed: ${err.message}\n`),
    );
    clients.push(client);
  }
  return clients;
}

function post(client: ClientThread, msg: ToClient): void {
  client.worker.postMessage(msg);
}

async function collect(clients: ClientThread[]): Promise<Extract<FromClient, { type: "report" }>[]> {
  return Promise.all(
    clients.map(
      (c) =>
        new Promise<Extract<FromClient, { type: "report" }>>((resolve) => {
          c.report = undefined;
          c.reported = () => resolve(c.report!);
          post(c, { type: "report" });
        }),
    ),
  );
}

export async function runEventsCase(options: EventsCaseOptions): Promise<EventsCaseResult> {
  const streamsWanted = options.streams ?? 2_000;
  const rate = options.writesPerSecond ?? 100;
  const seconds = options.seconds ?? 20;
  const threads = Math.max(1, Math.min(options.clientThreads ?? availableParallelism(), streamsWanted));
  const base = new URL(options.base);
  const result: EventsCaseResult = {
    name: EVENTS_CASE,
    status: "ran",
    streams: streamsWanted,
    connected: 0,
    writes: 0,
    writesPerSecond: rate,
    seconds,
    clientThreads: threads,
    deliveries: 0,
    expectedDeliveries: 0,
    streamsEnded: 0,
    fdLimit: openFilesLimit(),
  };
  const notes: string[] = [];
  // One socket per stream on each side; the server's own limit is raised when the bench starts it (run.ts).
  if (result.fdLimit !== undefined && result.fdLimit < streamsWanted + 256) {
    notes.push(
      `the bench's open-files limit is ${result.fdLimit}, too low for ${streamsWanted} streams (raise \`ulimit -n\`)`,
    );
  }
  const serverFds = openFilesLimit(options.pid);
  if (serverFds !== undefined && serverFds < streamsWanted + 256) {
    notes.push(`the server's open-files limit is ${serverFds}, too low for ${streamsWanted} streams`);
  }

  const probe = await fetch(`${options.base}/api/v1/events`, {
    headers: { authorization: `Bearer ${options.token}` },
    signal: AbortSignal.timeout(5_000),
  }).catch((err: Error) => err);
  if (probe instanceof Error) return { ...result, status: "failed", note: `probe failed: ${probe.message}` };
  await probe.body?.cancel();
  if (probe.status === 501) return { ...result, status: "not_built", note: "the server answers 501" };
  if (probe.status !== 200) return { ...result, status: "failed", note: `probe answered ${probe.status}` };

  const commits = new Map<number, number>();
  const orm = await openOrm(options.databaseUrl);
  let sampler: NodeJS.Timeout | undefined;
  let clients: ClientThread[] = [];
  try {
    await sleep(1_000);
    result.rssIdleMb = Math.round(rssNowMb(options.pid) ?? 0);
    clients = startClients(Number(base.port), options.token, streamsWanted, threads);
    const connectedNow = () => clients.reduce((n, c) => n + c.connected, 0);
    // Each thread opens its share in waves and reports after each; stop waiting once nothing moves for 10 s.
    let last = -1;
    let lastMoved = Date.now();
    while (connectedNow() < streamsWanted && Date.now() - lastMoved < 10_000) {
      await sleep(20);
      if (connectedNow() !== last) {
        last = connectedNow();
        lastMoved = Date.now();
      }
    }
    const connected = connectedNow();
    result.connected = connected;
    if (connected < streamsWanted) notes.push(`only ${connected} of ${streamsWanted} streams opened`);
    await sleep(1_000);
    result.rssBeforeMb = Math.round(rssNowMb(options.pid) ?? 0);
    if (connected > 0)
      result.perStreamKb = Math.round((((rssNowMb(options.pid) ?? 0) - result.rssIdleMb) * 1024) / connected);
    let rssPeak = 0;
    sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, rssNowMb(options.pid) ?? 0);
    }, 250);

    // Real writes: touch an issue (or the workspace) and record the change, as the modules do.
    const issues = await sql<{ id: string; identifier: string; team_key: string; team_id: string }>(
      orm.em.fork(),
      q`select i.id, t.key || '-' || i.number as identifier, t.key as team_key, t.id as team_id
         from issues i join teams t on t.id = i.team_id where i.workspace_id = ${options.workspaceId} limit 500`,
    );
    const write = async (n: number) => {
      const issue = issues.length > 0 ? issues[n % issues.length] : undefined;
      await orm.em.fork().transactional(async (em) => {
        if (issue) {
          await sql(em, q`update issues set updated_at = now() where id = ${issue.id}`);
          await recordChanges(em, options.workspaceId, [
            {
              entity: "issue",
              action: "updated",
              id: issue.id,
              identifier: issue.identifier,
              teamKey: issue.team_key,
              teamId: issue.team_id,
            },
          ]);
        } else {
          // No issues to touch (a bare workspace): a label-sized change does the same work for the stream.
          await sql(em, q`update workspaces set name = name where id = ${options.workspaceId}`);
          await recordChanges(em, options.workspaceId, [
            { entity: "label", action: "updated", id: randomUUID() },
          ]);
        }
        const row = await sqlOne<{ id: string }>(
          em,
          q`select currval(pg_get_serial_sequence('change_events', 'id'))::text as id`,
        );
        const id = Number(row!.id);
        // COMMIT is sent right after this callback returns; the event may arrive before it resolves here.
        const at = now();
        commits.set(id, at);
        for (const c of clients) post(c, { type: "commits", ids: [id], at: [at] });
      });
    };

    const total = Math.round(rate * seconds);
    const cpuBefore = cpuSnapshot(options.pid);
    const started = performance.now();
    const inFlight = new Set<Promise<void>>();
    let failed = 0;
    const startedAt = Date.now();
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      if (inFlight.size >= 16) await Promise.race(inFlight);
      const p: Promise<void> = write(n)
        .catch(() => {
          failed++;
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
    const spent = cpuSpent(cpuBefore, cpuSnapshot(options.pid));
    const elapsedMs = performance.now() - started;
    const cores = (ms: number) => Math.round((ms / elapsedMs) * 100) / 100;
    result.cores = {
      server: cores(spent.server),
      postgres: cores(spent.postgres),
      bench: cores(spent.bench),
    };
    result.writes = total - failed;
    result.expectedDeliveries = result.writes * connected;
    // Stragglers: wait until every stream has every change, or 10 s.
    let reports = await collect(clients);
    const delivered = () => reports.reduce((n, r) => n + r.count, 0);
    const deadline = Date.now() + 10_000;
    while (delivered() < result.expectedDeliveries && Date.now() < deadline) {
      await sleep(250);
      reports = await collect(clients);
    }
    clearInterval(sampler);
    sampler = undefined;
    const all = cpuSpent(cpuBefore, cpuSnapshot(options.pid));
    const perThousand = (ms: number) => Math.round((ms / Math.max(1, delivered() / 1000)) * 100) / 100;
    result.cpuPerThousand = {
      server: perThousand(all.server),
      postgres: perThousand(all.postgres),
      bench: perThousand(all.bench),
    };
    process.stderr.write(
      `[bench]   deliveries counted until ${((Date.now() - startedAt) / 1000).toFixed(1)} s after the first write\n`,
    );

    const histogram = new Histogram();
    const reached = new Map<number, number>();
    const arrivals = new Map<number, [number, number]>();
    let unmatched = 0;
    for (const r of reports) {
      histogram.merge(r.buckets, r.count, r.max);
      result.streamsEnded += r.ended;
      unmatched += r.unmatched;
      for (let i = 0; i < r.ids.length; i++) {
        const id = r.ids[i]!;
        reached.set(id, (reached.get(id) ?? 0) + r.reached[i]!);
        const seen = arrivals.get(id);
        if (seen) {
          seen[0] = Math.min(seen[0], r.first[i]!);
          seen[1] = Math.max(seen[1], r.last[i]!);
        } else arrivals.set(id, [r.first[i]!, r.last[i]!]);
      }
    }
    result.deliveries = histogram.count;
    const short = [...commits.keys()]
      .filter((id) => (reached.get(id) ?? 0) < connected)
      .sort((a, b) => a - b);
    if (short.length > 0) {
      process.stderr.write(
        `[bench]   changes short of every stream: ${short
          .slice(0, 20)
          .map((id) => `${id} (${reached.get(id) ?? 0})`)
          .join(", ")}` + ` of ids ${Math.min(...commits.keys())}..${Math.max(...commits.keys())}\n`,
      );
    }
    if (unmatched > 0) notes.push(`${unmatched} deliveries of changes the bench did not commit`);
    result.p50Ms = histogram.percentile(50);
    result.p99Ms = histogram.percentile(99);
    result.maxMs = Math.round(histogram.max * 10) / 10;
    result.rssPeakMb = Math.round(rssPeak);
    const firsts = new Histogram();
    const spreads = new Histogram();
    for (const [id, [first, last]] of arrivals) {
      firsts.add(first - commits.get(id)!);
      spreads.add(last - first);
    }
    result.firstDeliveryP50Ms = firsts.percentile(50);
    result.firstDeliveryP99Ms = firsts.percentile(99);
    result.spreadP50Ms = spreads.percentile(50);
    const complete = result.deliveries === result.expectedDeliveries;
    result.targets = [
      {
        name: "p99 commit-to-delivery",
        target: `< ${EVENTS_TARGETS.p99Ms} ms`,
        value: result.p99Ms,
        met: complete && result.p99Ms < EVENTS_TARGETS.p99Ms,
      },
      {
        name: "server RSS",
        target: `< ${EVENTS_TARGETS.rssMb} MB`,
        value: result.rssPeakMb,
        met: result.rssPeakMb < EVENTS_TARGETS.rssMb,
      },
    ];
    if (!complete) {
      notes.push(
        `${result.expectedDeliveries - result.deliveries} of ${result.expectedDeliveries} deliveries missing` +
          `${result.streamsEnded ? `; the server ended ${result.streamsEnded} streams as too slow (clients would resume by id)` : ""}` +
          `${failed ? `; ${failed} writes failed` : ""}`,
      );
    }
    if (notes.length > 0) result.note = notes.join("; ");
    return result;
  } catch (err) {
    return { ...result, status: "failed", note: (err as Error).message };
  } finally {
    if (sampler) clearInterval(sampler);
    for (const c of clients) {
      post(c, { type: "close" });
      await c.worker.terminate();
    }
    await orm.close(true);
  }
}

export function eventsSummary(r: EventsCaseResult): string {
  if (r.status !== "ran") return `${r.status}: ${r.note}`;
  return (
    `${r.connected} streams, ${r.writes} writes at ${r.writesPerSecond}/s: ${r.deliveries}/${r.expectedDeliveries} ` +
    `deliveries, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, max ${r.maxMs} ms (first stream p50 ${r.firstDeliveryP50Ms} ms, ` +
    `p99 ${r.firstDeliveryP99Ms} ms; first-to-last spread p50 ${r.spreadP50Ms} ms); server RSS ${r.rssIdleMb} MB idle, ` +
    `${r.rssBeforeMb} MB with the streams open (${r.perStreamKb} KB per stream), ${r.rssPeakMb} MB peak; cores in use: ` +
    `server ${r.cores?.server}, postgres ${r.cores?.postgres}, bench (${r.clientThreads} client threads and the writer) ` +
    `${r.cores?.bench}; CPU ms per 1,000 deliveries: server ${r.cpuPerThousand?.server}, postgres ` +
    `${r.cpuPerThousand?.postgres}, bench ${r.cpuPerThousand?.bench}${r.note ? ` (${r.note})` : ""}`
  );
}

export function eventsMarkdown(r: EventsCaseResult): string[] {
  const yes = (met: boolean) => (met ? "met" : "**missed**");
  const lines = ["", "## Live events", ""];
  if (r.status !== "ran") return [...lines, `${r.name}: ${r.status} (${r.note}).`, ""];
  return [
    ...lines,
    `${r.connected} open \`GET /events\` streams (raw HTTP clients in ${r.clientThreads} worker threads of the ` +
      `bench process) on one server; ${r.writes} committed changes at ${r.writesPerSecond}/s for ${r.seconds} s ` +
      "(an issue update plus recordChanges per transaction, written by the bench); delay measured from the moment " +
      "COMMIT is sent to the moment each stream's client receives the event.",
    "",
    "| deliveries | p50 ms | p99 ms | max ms | first stream p50 / p99 ms | first-to-last spread p50 ms | server RSS idle / streams open / peak | per stream |",
    "|---:|---:|---:|---:|---:|---:|---|---:|",
    `| ${r.deliveries.toLocaleString("en-US")} of ${r.expectedDeliveries.toLocaleString("en-US")} | ${r.p50Ms} | ` +
      `${r.p99Ms} | ${r.maxMs} | ${r.firstDeliveryP50Ms} / ${r.firstDeliveryP99Ms} | ${r.spreadP50Ms} | ` +
      `${r.rssIdleMb} / ${r.rssBeforeMb} / ${r.rssPeakMb} MB | ${r.perStreamKb} KB |`,
    "",
    "The spread between the first and the last stream includes the clients' own work, on the same two cores." +
      (r.cores
        ? ` Cores in use while writing: server ${r.cores.server}, PostgreSQL ${r.cores.postgres}, bench ` +
          `(client threads and writer) ${r.cores.bench}, of 2.`
        : "") +
      (r.cpuPerThousand
        ? ` CPU ms per 1,000 deliveries, until the last one: server ${r.cpuPerThousand.server}, PostgreSQL ` +
          `${r.cpuPerThousand.postgres}, bench ${r.cpuPerThousand.bench}.`
        : ""),
    "",
    `Targets: ${(r.targets ?? []).map((t) => `${t.name} ${t.target}: ${yes(t.met)}`).join("; ")}.` +
      (r.note ? ` Note: ${r.note}.` : ""),
    "",
  ];
}
