/**
 * CPU time spent by each party of a bench case, read from /proc: the server process, the PostgreSQL
 * processes of the bench's cluster, and the bench process itself (the load generator). Per request, this says where the two cores went.
 */
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of one process in ms, or 0 when it is gone. */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

function parentPid(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return 0;
  }
}

/** Whether `pid` is a descendant of this process (the embedded cluster it started), by its parents. */
const ours = new Map<number, boolean>();
function descendsFromBench(pid: number): boolean {
  let known = ours.get(pid);
  if (known === undefined) {
    known = false;
    for (let p = parentPid(pid), hops = 0; p > 1 && hops < 8; p = parentPid(p), hops++)
      if (p === process.pid) {
        known = true;
        break;
      }
    ours.set(pid, known);
  }
  return known;
}

/**
 * The PostgreSQL processes of the bench's own embedded cluster (descendants of this process), so that
 * another cluster on the machine (someone's test run) is not counted; every PostgreSQL process when none
 * descends from the bench (a `DATABASE_URL`).
 */
function postgresPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres") pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  const own = pids.filter(descendsFromBench);
  return own.length ? own : pids;
}

export interface CpuSnapshot {
  server: number;
  postgres: Map<number, number>;
  bench: number;
}

export function cpuSnapshot(serverPid: number): CpuSnapshot {
  const postgres = new Map<number, number>();
  for (const pid of postgresPids()) postgres.set(pid, processCpuMs(pid));
  const own = process.cpuUsage();
  return { server: processCpuMs(serverPid), postgres, bench: (own.user + own.system) / 1000 };
}

export interface CpuShare {
  /** CPU ms per request, by party. */
  serverMs: number;
  postgresMs: number;
  loadGeneratorMs: number;
}

/** CPU ms each party spent between two snapshots; a PostgreSQL process started in between counts from zero. */
export function cpuSpent(
  before: CpuSnapshot,
  after: CpuSnapshot,
): { server: number; postgres: number; bench: number } {
  let postgres = 0;
  for (const [pid, ms] of after.postgres) postgres += ms - (before.postgres.get(pid) ?? 0);
  return { server: after.server - before.server, postgres, bench: after.bench - before.bench };
}
