/**
 * Attachments through the built server (`npm run bench:attachments -w @tracker/server`), as `npm start` runs
 * it, storing on disk: uploads and downloads of 1 MB and 25 MB files one after another (MB/s, p50 and p99 of
 * each request), then 10 uploads of 25 MB at once while the server's resident memory is sampled every 20 ms:
 * files stream through the server, so its RSS must grow by less than 50 MB (contract, `uploadAttachment`).
 * Options: `--rounds 20 --big-rounds 4 --parallel 10`.
 */

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startBuiltServer } from "./built-server.js";
import { rssNowMb } from "./memory.js";

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ROUNDS = opt("rounds", 20);
const BIG_ROUNDS = opt("big-rounds", 4);
const PARALLEL = opt("parallel", 10);
const MB = 1024 * 1024;

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Bytes that do not compress and sniff as nothing: what a screenshot or an archive costs the server. */
function fileOf(bytes: number): Buffer {
  const b = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i += 4) b.writeUInt32LE((Math.random() * 0xffffffff) >>> 0, i);
  return b;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tracker-bench-attachments-"));
  const server = await startBuiltServer(path.join(dir, "data"));
  const auth = { authorization: `Bearer ${server.key}` };
  try {
    const teams = (await (await fetch(`${server.url}/api/v1/teams`, { headers: auth })).json()) as {
      teams: { key: string }[];
    };
    const created = await fetch(`${server.url}/api/v1/issues`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ team: teams.teams[0]!.key, title: "Attachments bench" }),
    });
    const identifier = ((await created.json()) as { issue: { identifier: string } }).issue.identifier;

    const upload = async (bytes: Buffer, name: string): Promise<string> => {
      const res = await fetch(
        `${server.url}/api/v1/issues/${identifier}/attachments?filename=${encodeURIComponent(name)}`,
        { method: "POST", headers: { ...auth, "content-type": "application/octet-stream" }, body: bytes },
      );
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { attachment: { url: string } }).attachment.url;
    };
    const download = async (url: string): Promise<number> => {
      const res = await fetch(new URL(url, server.url));
      if (res.status !== 200) throw new Error(`download: ${res.status}`);
      let n = 0;
      for await (const chunk of res.body!) n += (chunk as Uint8Array).byteLength;
      return n;
    };

    const lines: string[] = [`attachments bench: disk storage, the built server (${os.cpus().length} cores)`];
    for (const [size, rounds] of [
      [1, ROUNDS],
      [25, BIG_ROUNDS],
    ] as const) {
      const file = fileOf(size * MB);
      const ups: number[] = [];
      const downs: number[] = [];
      for (let r = 0; r < rounds; r++) {
        let t = performance.now();
        const url = await upload(file, `bench-${size}mb-${r}.bin`);
        ups.push(performance.now() - t);
        t = performance.now();
        const got = await download(url);
        downs.push(performance.now() - t);
        if (got !== file.length) throw new Error(`downloaded ${got} bytes of ${file.length}`);
      }
      const rate = (ms: number[]) => ((size * ms.length) / (ms.reduce((a, b) => a + b, 0) / 1000)).toFixed(0);
      ups.sort((a, b) => a - b);
      downs.sort((a, b) => a - b);
      lines.push(
        `  ${size} MB × ${rounds}: upload ${rate(ups)} MB/s (p50 ${percentile(ups, 50).toFixed(0)} ms, p99 ${percentile(ups, 99).toFixed(0)} ms);` +
          ` download ${rate(downs)} MB/s (p50 ${percentile(downs, 50).toFixed(0)} ms, p99 ${percentile(downs, 99).toFixed(0)} ms)`,
      );
    }

    // Ten 25 MB uploads at once: the server's memory, sampled while they stream.
    const big = fileOf(25 * MB);
    const before = rssNowMb(server.pid) ?? Number.NaN;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssNowMb(server.pid) ?? Number.NaN);
    }, 20);
    const started = performance.now();
    await Promise.all(Array.from({ length: PARALLEL }, (_, i) => upload(big, `parallel-${i}.bin`)));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const growth = peak - before;
    lines.push(
      `  ${PARALLEL} × 25 MB at once: ${((PARALLEL * 25) / seconds).toFixed(0)} MB/s in all; server RSS ${before.toFixed(0)} MB before,` +
        ` peak ${peak.toFixed(0)} MB: grew ${growth.toFixed(0)} MB (target under 50 MB: ${growth < 50 ? "met" : "MISSED"})`,
    );
    console.log(lines.join("\n"));
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
