import path from "node:path";
import { createTracker } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../db/embedded-postgres.js";
import { createdIssuesStream, privateFolder, until } from "../test/operations-kit.js";
import {
  postmasterPid,
  recordingFetch,
  type ServerProcess,
  startServerProcess,
} from "../test/server-process.js";

const { root, onCleanup } = privateFolder("external");

/**
 * A PostgreSQL the server does not run (DATABASE_URL) going away and coming back, as a restart or a failover
 * of an operator's cluster does: here a cluster this test starts itself, unsupervised, killed with SIGKILL
 * and started again on the same folder and port.
 */
describe("an external PostgreSQL that restarts", { timeout: 180_000 }, () => {
  it("is survived without restarting the server: 503 meanwhile, then answers, and LISTEN subscribes again", async () => {
    const dataDir = path.join(root, "pg");
    let pg: EmbeddedPostgres = await startEmbeddedPostgres({ dataDir, durable: true, supervise: false });
    onCleanup(() => pg.stop());
    const server: ServerProcess = await startServerProcess({ DATABASE_URL: pg.url, NODE_ENV: "development" });
    onCleanup(() => server.stop());
    const recorder = recordingFetch();
    const tracker = createTracker({ baseUrl: server.url, apiKey: server.demoKey!, fetch: recorder.fetch });

    const stream = createdIssuesStream(server.url, server.demoKey!);
    await until(() => stream.connections === 1, "the stream to open");
    const before = await tracker.issues.create({ team: "ENG", title: "Before the restart" });
    await until(() => stream.created.has(before.identifier), "the first write on the stream");

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
    await until(
      () => stream.created.has(after.identifier),
      "the write after the restart on the stream",
      20_000,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(stream.connections).toBeGreaterThanOrEqual(2);
    await stream.close();

    for (const a of recorder.answers.filter((x) => x.status >= 500)) expect(a.status).toBe(503);
    expect(server.log()).toMatch(/"msg":"events: LISTEN connection lost; reconnecting"/);
    expect(server.log()).not.toMatch(/"msg":"unhandled error"/);
  });
});
