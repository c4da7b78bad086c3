import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTracker } from "@tracker/sdk";
import { afterAll } from "vitest";

/**
 * What the operations tests (a database killed, a drain, a backup, two instances) share: a folder of their
 * own, things to stop after the file's tests, waiting for a condition, and a live stream of created issues.
 */

/**
 * A private temporary folder for one test file (0700, as a checkout in a home directory is: postgres runs
 * as another uid inside it), removed after the file's tests, once what `onCleanup` was given has stopped
 * (last registered first).
 */
export function privateFolder(prefix: string): { root: string; onCleanup(stop: () => unknown): void } {
  const root = mkdtempSync(path.join(os.tmpdir(), `tracker-${prefix}-`));
  chmodSync(root, 0o700);
  const stops: (() => unknown)[] = [];
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    rmSync(root, { recursive: true, force: true });
  });
  return { root, onCleanup: (stop) => stops.push(stop) };
}

/** Polls `check` every `everyMs` until it holds; fails naming `what` after `ms`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 60_000,
  everyMs = 50,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * The SDK's live event stream, as a board or a script holds one, reduced to what these tests ask of it:
 * how many times it connected, and the identifiers of the issues it saw created.
 */
export function createdIssuesStream(baseUrl: string, apiKey: string) {
  const reader = createTracker({ baseUrl, apiKey });
  const created = new Set<string>();
  const ids: number[] = [];
  const state = { connections: 0 };
  const controller = new AbortController();
  const reading = (async () => {
    for await (const e of reader.events.stream({ signal: controller.signal })) {
      if (e.event === "connected") state.connections++;
      if (e.event !== "changed") continue;
      ids.push(Number(e.id));
      if (e.data.entity === "issue" && e.data.action === "created" && e.data.identifier)
        created.add(e.data.identifier);
    }
  })();
  return {
    created,
    /** The ids of every change event, in the order they arrived. */
    ids,
    get connections() {
      return state.connections;
    },
    /** Ends the stream and waits for the reader to finish. */
    async close() {
      controller.abort();
      await reading.catch(() => undefined);
    },
  };
}
