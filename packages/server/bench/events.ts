/**
 * The live event stream case of `npm run bench`: many open `GET /events` streams on one server instance
 * while changes are committed at a steady rate, measuring the delay from commit to delivery on every
 * stream and the server's resident memory. Clients are raw `http` requests on 127.0.0.1 (an EventSource
 * object per stream would weigh more than the server being measured); everything is bounded in count
 * and time. Misses are reported, never fatal.
 */

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import { performance } from "node:perf_hooks";
import { openOrm } from "../src/db/orm.js";
import { sql, sqlOne } from "../src/db/sql.js";
import { recordChanges } from "../src/events/record-change.js";
import { cpuSnapshot, cpuSpent } from "./cpu.js";

export const EVENTS_CASE = "events: open streams, commit-to-delivery delay";
export const EVENTS_TARGETS = { p99Ms: 100, rssMb: 400 };

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
  rssBeforeMb?: number;
  /** CPU cores in use during the writes: the server, PostgreSQL, and the bench process (clients and writer). */
  cores?: { server: number; postgres: number; bench: number };
  targets?: { name: string; target: string; value: number; met: boolean }[];
}

/** Delays are counted in 0.1 ms buckets up to 60 s: exact enough percentiles without keeping millions of samples. */
class Histogram {
  private readonly buckets = new Uint32Array(600_001);
  count = 0;
  max = 0;
  add(ms: number): void {
    const b = Math.min(this.buckets.length - 1, Math.max(0, Math.round(ms * 10)));
    this.buckets[b]!++;
    this.count++;
    if (ms > this.max) this.max = ms;
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

function rssMb(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

const FRAME_END = Buffer.from("\n\n");
const CONNECTED = Buffer.from("event: connected\n");
const CHANGED = Buffer.from("event: changed\nid: ");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface OpenStream {
  req: http.ClientRequest;
  connected: boolean;
  /** The server ended it (e.g. as too slow) before the case was over. */
  ended: boolean;
}

/** Opens one stream; `onChanged(id, at)` gets each `changed` event id with its arrival time. */
function openStream(
  base: URL,
  token: string,
  onChanged: (id: number, at: number) => void,
  onConnected: () => void,
): OpenStream {
  const stream: OpenStream = {
    req: undefined as unknown as http.ClientRequest,
    connected: false,
    ended: false,
  };
  stream.req = http.get(
    {
      host: "127.0.0.1",
      port: base.port,
      path: "/api/v1/events",
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
      agent: false,
    },
    (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return;
      }
      // Bytes, not strings: the client must cost far less than the server it measures.
      let tail: Buffer | undefined;
      res.on("data", (chunk: Buffer) => {
        const at = performance.now();
        const buf = tail ? Buffer.concat([tail, chunk]) : chunk;
        const end = buf.lastIndexOf(FRAME_END);
        if (end === -1) {
          tail = buf;
          return;
        }
        tail = end + 2 < buf.length ? buf.subarray(end + 2) : undefined;
        if (!stream.connected && buf.indexOf(CONNECTED) !== -1) {
          stream.connected = true;
          onConnected();
        }
        for (let pos = buf.indexOf(CHANGED); pos !== -1 && pos < end; pos = buf.indexOf(CHANGED, pos)) {
          pos += CHANGED.length;
          let id = 0;
          for (let c = buf[pos]!; c >= 48 && c <= 57; c = buf[++pos]!) id = id * 10 + (c - 48);
          onChanged(id, at);
        }
      });
      res.on("error", () => undefined);
      res.on("close", () => {
        stream.ended = true;
      });
    },
  );
  stream.req.on("error", () => undefined);
  return stream;
}

export async function runEventsCase(options: EventsCaseOptions): Promise<EventsCaseResult> {
  const streamsWanted = options.streams ?? 2_000;
  const rate = options.writesPerSecond ?? 100;
  const seconds = options.seconds ?? 20;
  const base = new URL(options.base);
  const result: EventsCaseResult = {
    name: EVENTS_CASE,
    status: "ran",
    streams: streamsWanted,
    connected: 0,
    writes: 0,
    writesPerSecond: rate,
    seconds,
    deliveries: 0,
    expectedDeliveries: 0,
    streamsEnded: 0,
  };

  const probe = await fetch(`${options.base}/api/v1/events`, {
    headers: { authorization: `Bearer ${options.token}` },
    signal: AbortSignal.timeout(5_000),
  }).catch((err: Error) => err);
  if (probe instanceof Error) return { ...result, status: "failed", note: `probe failed: ${probe.message}` };
  await probe.body?.cancel();
  if (probe.status === 501) return { ...result, status: "not_built", note: "the server answers 501" };
  if (probe.status !== 200) return { ...result, status: "failed", note: `probe answered ${probe.status}` };

  const commits = new Map<number, number>();
  const histogram = new Histogram();
  let connected = 0;
  /** First and last arrival of each change across the streams: the fan-out spread, clients included. */
  const arrivals = new Map<number, [number, number]>();
  /** Deliveries per change id, to name the changes that did not reach every stream. */
  const reached = new Map<number, number>();
  const onChanged = (id: number, at: number) => {
    const committed = commits.get(id);
    if (committed === undefined) return; // not one of ours
    reached.set(id, (reached.get(id) ?? 0) + 1);
    histogram.add(at - committed);
    const seen = arrivals.get(id);
    if (seen) seen[1] = at;
    else arrivals.set(id, [at, at]);
  };
  const streams: OpenStream[] = [];
  const orm = await openOrm(options.databaseUrl);
  let sampler: NodeJS.Timeout | undefined;
  try {
    // Open the streams in waves, so the listen backlog is never the thing being measured.
    for (let i = 0; i < streamsWanted; i += 100) {
      const wave = Math.min(100, streamsWanted - i);
      for (let j = 0; j < wave; j++)
        streams.push(openStream(base, options.token, onChanged, () => connected++));
      const deadline = Date.now() + 10_000;
      while (connected < i + wave && Date.now() < deadline) await sleep(5);
    }
    result.connected = connected;
    if (connected < streamsWanted) result.note = `only ${connected} of ${streamsWanted} streams opened`;
    await sleep(1_000);
    result.rssBeforeMb = Math.round(rssMb(options.pid) ?? 0);
    let rssPeak = 0;
    sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, rssMb(options.pid) ?? 0);
    }, 250);

    // Real writes: touch an issue (or the workspace) and record the change, as the modules do.
    const issues = await sql<{ id: string; identifier: string; team_key: string; team_id: string }>(
      orm.em.fork(),
      `select i.id, t.key || '-' || i.number as identifier, t.key as team_key, t.id as team_id
         from issues i join teams t on t.id = i.team_id where i.workspace_id = ? limit 500`,
      [options.workspaceId],
    );
    const write = async (n: number) => {
      const issue = issues.length > 0 ? issues[n % issues.length] : undefined;
      await orm.em.fork().transactional(async (em) => {
        if (issue) {
          await sql(em, "update issues set updated_at = now() where id = ?", [issue.id]);
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
          await sql(em, "update workspaces set name = name where id = ?", [options.workspaceId]);
          await recordChanges(em, options.workspaceId, [
            { entity: "label", action: "updated", id: randomUUID() },
          ]);
        }
        const row = await sqlOne<{ id: string }>(
          em,
          "select currval(pg_get_serial_sequence('change_events', 'id'))::text as id",
        );
        const id = Number(row!.id);
        // COMMIT is sent right after this callback returns; the event may arrive before it resolves here.
        commits.set(id, performance.now());
      });
    };

    const total = Math.round(rate * seconds);
    const cpuBefore = cpuSnapshot(options.pid);
    const started = performance.now();
    const inFlight = new Set<Promise<void>>();
    let failed = 0;
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
    const deadline = Date.now() + 10_000;
    while (histogram.count < result.expectedDeliveries && Date.now() < deadline) await sleep(50);
    clearInterval(sampler);
    sampler = undefined;

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
    result.streamsEnded = streams.filter((s) => s.ended).length;
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
      result.note =
        `${result.expectedDeliveries - result.deliveries} of ${result.expectedDeliveries} deliveries missing` +
        `${result.streamsEnded ? `; the server ended ${result.streamsEnded} streams as too slow (clients would resume by id)` : ""}` +
        `${failed ? `; ${failed} writes failed` : ""}`;
    }
    return result;
  } catch (err) {
    return { ...result, status: "failed", note: (err as Error).message };
  } finally {
    if (sampler) clearInterval(sampler);
    for (const s of streams) s.req.destroy();
    await orm.close(true);
  }
}

export function eventsSummary(r: EventsCaseResult): string {
  if (r.status !== "ran") return `${r.status}: ${r.note}`;
  return (
    `${r.connected} streams, ${r.writes} writes at ${r.writesPerSecond}/s: ${r.deliveries}/${r.expectedDeliveries} ` +
    `deliveries, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, max ${r.maxMs} ms (first stream p50 ${r.firstDeliveryP50Ms} ms, ` +
    `p99 ${r.firstDeliveryP99Ms} ms; first-to-last spread p50 ${r.spreadP50Ms} ms); server RSS ${r.rssBeforeMb} MB idle, ` +
    `${r.rssPeakMb} MB peak; cores in use: server ${r.cores?.server}, postgres ${r.cores?.postgres}, ` +
    `bench clients ${r.cores?.bench}${r.note ? ` (${r.note})` : ""}`
  );
}

export function eventsMarkdown(r: EventsCaseResult): string[] {
  const yes = (met: boolean) => (met ? "met" : "**missed**");
  const lines = ["", "## Live events", ""];
  if (r.status !== "ran") return [...lines, `${r.name}: ${r.status} (${r.note}).`, ""];
  return [
    ...lines,
    `${r.connected} open \`GET /events\` streams (raw HTTP clients in the bench process) on one server; ` +
      `${r.writes} committed changes at ${r.writesPerSecond}/s for ${r.seconds} s (an issue update plus ` +
      "recordChanges per transaction, written by the bench); delay measured from the moment COMMIT is sent " +
      "to the moment each stream's client receives the event.",
    "",
    "| deliveries | p50 ms | p99 ms | max ms | first stream p50 / p99 ms | first-to-last spread p50 ms | server RSS idle / peak |",
    "|---:|---:|---:|---:|---:|---:|---|",
    `| ${r.deliveries.toLocaleString("en-US")} of ${r.expectedDeliveries.toLocaleString("en-US")} | ${r.p50Ms} | ` +
      `${r.p99Ms} | ${r.maxMs} | ${r.firstDeliveryP50Ms} / ${r.firstDeliveryP99Ms} | ${r.spreadP50Ms} | ${r.rssBeforeMb} / ${r.rssPeakMb} MB |`,
    "",
    "The spread between the first and the last stream includes the bench client's own work: one process " +
      "parses every stream's HTTP response on the same two cores." +
      (r.cores
        ? ` Cores in use while writing: server ${r.cores.server}, PostgreSQL ${r.cores.postgres}, bench ` +
          `(clients and writer) ${r.cores.bench}, of 2.`
        : ""),
    "",
    `Targets: ${(r.targets ?? []).map((t) => `${t.name} ${t.target}: ${yes(t.met)}`).join("; ")}.` +
      (r.note ? ` Note: ${r.note}.` : ""),
    "",
  ];
}
