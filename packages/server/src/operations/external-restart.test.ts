import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTracker } from "@tracker/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../db/embedded-postgres.js";
import {
  postmasterPid,
  recordingFetch,
  type ServerProcess,
  startServerProcess,
} from "../test/server-process.js";

const root = mkdtempSync(path.join(os.tmpdir(), "tracker-external-"));
chmodSync(root, 0o700);
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  rmSync(root, { recursive: true, force: true });
});

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface ChangeData {
  entity: string;
  action: string;
  identifier?: string;
}

/**
 * A PostgreSQL the server does not run (DATABASE_URL) going away and coming back, as a restart or a failover
 * of an operator's cluster does: here a cluster this test starts itself, unsupervised, killed with SIGKILL
 * and started again on the same folder and port.
 */
describe("an external PostgreSQL that restarts", { timeout: 180_000 }, () => {
  it("is survived without restarting the server: 503 meanwhile, then answers, and LISTEN subscribes again", async () => {
    const dataDir = path.join(root, "pg");
    let pg: EmbeddedPostgres = await startEmbeddedPostgres({ dataDir, durable: true, supervise: false });
    cleanup.push(() => pg.stop());
    const server: ServerProcess = await startServerProcess({ DATABASE_URL: pg.url, NODE_ENV: "development" });
    cleanup.push(() => server.stop());
    const recorder = recordingFetch();
    const tracker = createTracker({ baseUrl: server.url, apiKey: server.demoKey!, fetch: recorder.fetch });

    const streamed = new Set<string>();
    let connections = 0;
    const controller = new AbortController();
    const reader = createTracker({ baseUrl: server.url, apiKey: server.demoKey! });
    const reading = (async () => {
      for await (const e of reader.events.stream({ signal: controller.signal })) {
        if (e.event === "connected") connections++;
        const data = e.data as ChangeData;
        if (e.event === "changed" && data.entity === "issue" && data.action === "created")
          streamed.add(data.identifier!);
      }
    })();
    await until(() => connections === 1, "the stream to open");
    const before = await tracker.issues.create({ team: "ENG", title: "Before the restart" });
    await until(() => streamed.has(before.identifier), "the first write on the stream");

    process.kill(postmasterPid(dataDir)!, "SIGKILL");
    await until(async () => (await fetch(`${server.url}/health`)).status === 503, "health to say down");
    const down = await fetch(`${server.url}/api/v1/users`, {
      headers: { authorization: `Bearer ${server.demoKey}` },
    });
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("1");
    expect(await down.json()).toMatchObject({ code: "service_unavailable" });

    // The operator's cluster comes back on the same address.
    pg = await startEmbeddedPostgres({ dataDir, port: pg.port, durable: true, supervise: false });
    await until(async () => (await fetch(`${server.url}/health`)).status === 200, "health to say up");
    const after = await tracker.issues.create({ team: "ENG", title: "After the restart" });
    expect((await tracker.issues.get(before.identifier)).title).toBe("Before the restart");

    // Notified changes reach the stream again well within a ping interval: LISTEN is subscribed again.
    const started = Date.now();
    await until(() => streamed.has(after.identifier), "the write after the restart on the stream", 20_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(connections).toBeGreaterThanOrEqual(2);
    controller.abort();
    await reading;

    for (const a of recorder.answers.filter((x) => x.status >= 500)) expect(a.status).toBe(503);
    expect(server.log()).toMatch(/"msg":"events: LISTEN connection lost; reconnecting"/);
    expect(server.log()).not.toMatch(/"msg":"unhandled error"/);
  });
});
