/**
 * One worker thread of the live-events case's clients (bench/events.ts): it opens its share of the
 * `GET /events` streams as raw HTTP requests, finds each `changed` event id in the bytes, and keeps the
 * commit-to-delivery delays in a histogram of its own. The writer (the main thread) posts each change's
 * commit time; an event that arrives before its commit time is known waits for it. Times are epoch
 * milliseconds (`performance.timeOrigin + performance.now()`), comparable across threads.
 *
 * Several of these share the parsing of thousands of streams across the cores, so the measuring side is not
 * what is measured; how much CPU they take is reported beside the result.
 */

import http from "node:http";
import { performance } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";

export interface ClientWorkerData {
  port: number;
  token: string;
  streams: number;
}

/** Main thread to worker. */
export type ToClient =
  | { type: "commits"; ids: number[]; at: number[] }
  | { type: "report" }
  | { type: "close" };

/** Worker to main thread. */
export type FromClient =
  | { type: "connected"; count: number }
  | {
      type: "report";
      /** Delay counts in 0.1 ms buckets (see {@link BUCKETS}). */
      buckets: Uint32Array;
      count: number;
      max: number;
      /** Per change id: deliveries, first and last arrival (epoch ms). */
      ids: number[];
      reached: number[];
      first: number[];
      last: number[];
      ended: number;
      /** Events seen whose commit time never came (not the writer's, or its commit failed). */
      unmatched: number;
    };

/** 0.1 ms buckets up to 60 s. */
export const BUCKETS = 600_001;

const FRAME_END = Buffer.from("\n\n");
const CONNECTED = Buffer.from("event: connected\n");
const CHANGED = Buffer.from("event: changed\nid: ");

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function main(): void {
  const port = parentPort;
  if (!port) return;
  const data = workerData as ClientWorkerData;
  const buckets = new Uint32Array(BUCKETS);
  let count = 0;
  let max = 0;
  const commits = new Map<number, number>();
  /** Arrivals of ids whose commit time has not come yet. */
  const early = new Map<number, number[]>();
  const perId = new Map<number, { reached: number; first: number; last: number }>();
  let connected = 0;
  let ended = 0;

  const record = (id: number, at: number, committed: number) => {
    const ms = at - committed;
    buckets[Math.min(BUCKETS - 1, Math.max(0, Math.round(ms * 10)))]!++;
    count++;
    if (ms > max) max = ms;
    const seen = perId.get(id);
    if (seen) {
      seen.reached++;
      if (at < seen.first) seen.first = at;
      if (at > seen.last) seen.last = at;
    } else perId.set(id, { reached: 1, first: at, last: at });
  };
  const onChanged = (id: number, at: number) => {
    const committed = commits.get(id);
    if (committed !== undefined) record(id, at, committed);
    else {
      const list = early.get(id);
      if (list) list.push(at);
      else early.set(id, [at]);
    }
  };

  const open = () => {
    let done = false;
    const req = http.get(
      {
        host: "127.0.0.1",
        port: data.port,
        path: "/api/v1/events",
        headers: { authorization: `Bearer ${data.token}`, accept: "text/event-stream" },
        agent: false,
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return;
        }
        // Bytes, not strings: the client must cost far less than the server it measures.
        let tail: Buffer | undefined;
        let isConnected = false;
        res.on("data", (chunk: Buffer) => {
          const at = now();
          const buf = tail ? Buffer.concat([tail, chunk]) : chunk;
          const end = buf.lastIndexOf(FRAME_END);
          if (end === -1) {
            tail = buf;
            return;
          }
          tail = end + 2 < buf.length ? buf.subarray(end + 2) : undefined;
          if (!isConnected && buf.indexOf(CONNECTED) !== -1) {
            isConnected = true;
            connected++;
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
          if (!done) ended++;
          done = true;
        });
      },
    );
    req.on("error", () => undefined);
    return () => {
      done = true;
      req.destroy();
    };
  };

  const closers: (() => void)[] = [];
  port.on("message", (msg: ToClient) => {
    if (msg.type === "commits") {
      for (let i = 0; i < msg.ids.length; i++) {
        const id = msg.ids[i]!;
        const at = msg.at[i]!;
        commits.set(id, at);
        const waiting = early.get(id);
        if (waiting) {
          early.delete(id);
          for (const arrived of waiting) record(id, arrived, at);
        }
      }
    } else if (msg.type === "report") {
      const ids = [...perId.keys()];
      const report: FromClient = {
        type: "report",
        buckets,
        count,
        max,
        ids,
        reached: ids.map((id) => perId.get(id)!.reached),
        first: ids.map((id) => perId.get(id)!.first),
        last: ids.map((id) => perId.get(id)!.last),
        ended,
        unmatched: [...early.values()].reduce((n, l) => n + l.length, 0),
      };
      port.postMessage(report);
    } else if (msg.type === "close") {
      for (const close of closers) close();
      port.close();
    }
  });

  void (async () => {
    // Open the streams in waves, so the listen backlog is never the thing being measured.
    for (let i = 0; i < data.streams; i += 50) {
      const wave = Math.min(50, data.streams - i);
      for (let j = 0; j < wave; j++) closers.push(open());
      const deadline = Date.now() + 10_000;
      while (connected < i + wave && Date.now() < deadline) await sleep(5);
      port.postMessage({ type: "connected", count: connected } satisfies FromClient);
    }
  })();
}

main();
