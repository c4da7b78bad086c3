import pg from "pg";
import type { TestServer } from "./harness.js";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `statements` in a transaction of its own and keeps it open while each of `queue` sends requests that
 * must wait for its locks, in order, each given time to reach its wait before the next; then commits. The
 * requests (unsettled: their promises) come back, to be awaited now that the locks are released.
 */
export async function whileHolding<T extends unknown[]>(
  srv: TestServer,
  statements: [text: string, params: unknown[]][],
  ...queue: { [K in keyof T]: () => T[K] }
): Promise<{ [K in keyof T]: T[K] }> {
  const holder = new pg.Client({ connectionString: srv.databaseUrl });
  await holder.connect();
  try {
    await holder.query("begin");
    for (const [text, params] of statements) await holder.query(text, params);
    const queued: unknown[] = [];
    for (const send of queue) {
      queued.push(send());
      await pause(300);
    }
    await holder.query("commit");
    return queued as { [K in keyof T]: T[K] };
  } finally {
    await holder.end();
  }
}
