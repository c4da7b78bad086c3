import path from "node:path";
import { createTracker, TrackerError } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { createdIssuesStream, privateFolder, until } from "../test/operations-kit.js";
import {
  postgresProcessesFor,
  postmasterPid,
  type RecordedAnswer,
  recordingFetch,
  startServerProcess,
} from "../test/server-process.js";

const { root, onCleanup } = privateFolder("crash");

describe("the embedded database killed under load", { timeout: 180_000 }, () => {
  it("is restarted on its data; meanwhile 503 with Retry-After, never 500; every acknowledged write is there once; the stream resumes", async () => {
    const dataDir = path.join(root, "data");
    const server = await startServerProcess({ TRACKER_DATA_DIR: dataDir, NODE_ENV: "development" });
    onCleanup(() => server.stop());
    const apiKey = server.demoKey!;
    const recorder = recordingFetch();
    const tracker = createTracker({ baseUrl: server.url, apiKey, fetch: recorder.fetch });

    // A live stream through the SDK, as a board or a script holds one.
    const stream = createdIssuesStream(server.url, apiKey);
    await until(() => stream.connections === 1, "the stream to open");

    // 20 writers, each write with its own Idempotency-Key (the SDK's default), resent by the SDK's retries.
    const acknowledged = new Map<string, string>();
    const refused: unknown[] = [];
    let writing = true;
    const writers = Array.from({ length: 20 }, (_, w) =>
      (async () => {
        for (let i = 0; writing; i++) {
          const title = `crash writer ${w} #${i}`;
          try {
            acknowledged.set(title, (await tracker.issues.create({ team: "ENG", title })).identifier);
          } catch (err) {
            refused.push(err);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      })(),
    );
    await until(() => acknowledged.size >= 100, "100 writes before the crash");

    const pid = postmasterPid(dataDir);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, "SIGKILL");
    const seenHealth = new Set<string>();
    await until(async () => {
      const res = await fetch(`${server.url}/health`);
      const body = (await res.json()) as { status: string; database: string };
      seenHealth.add(`${res.status} ${body.status} ${body.database}`);
      return seenHealth.has("503 degraded recovering") && body.database === "up";
    }, "health to say recovering, then up");
    expect(seenHealth).toContain("200 ok up");
    expect(postmasterPid(dataDir)).not.toBe(pid);

    // Writes go on after the restart without anyone restarting the server.
    const before = acknowledged.size;
    await until(() => acknowledged.size >= before + 100, "100 writes after the restart");
    writing = false;
    await Promise.all(writers);

    // What clients saw while the database was away: 503 problems with Retry-After, never another 5xx.
    const failures = recorder.answers.filter((a) => a.status >= 500);
    expect(failures.length).toBeGreaterThan(0);
    for (const a of failures) {
      expect(a).toMatchObject({ status: 503, code: "service_unavailable", retryAfter: "1" });
      expect(a.contentType).toMatch(/^application\/problem\+json/);
    }
    // The SDK carried writes across the outage: the same key answered 503, then 201.
    const byKey = new Map<string, RecordedAnswer[]>();
    for (const a of recorder.answers)
      if (a.idempotencyKey) byKey.set(a.idempotencyKey, [...(byKey.get(a.idempotencyKey) ?? []), a]);
    const carried = [...byKey.values()].filter(
      (tries) => tries.some((a) => a.status === 503) && tries.at(-1)!.status === 201,
    );
    expect(carried.length).toBeGreaterThan(0);
    // Any write it gave up on was refused as unavailable.
    for (const err of refused) expect(err).toBeInstanceOf(TrackerError);
    for (const err of refused) expect((err as TrackerError).status).toBe(503);

    // Every acknowledged write is there exactly once, and no write appears twice.
    const titles = new Map<string, string[]>();
    for await (const issue of tracker.issues.iterate({ team: "ENG", limit: 200 })) {
      if (!issue.title.startsWith("crash writer ")) continue;
      titles.set(issue.title, [...(titles.get(issue.title) ?? []), issue.identifier]);
    }
    for (const [title, identifier] of acknowledged) expect(titles.get(title)).toEqual([identifier]);
    for (const [title, identifiers] of titles) expect(identifiers, title).toHaveLength(1);

    // The stream was closed with a retry hint, reconnected by id, and missed no created issue.
    await until(
      () => [...acknowledged.values()].every((id) => stream.created.has(id)),
      "every write on the stream",
    );
    expect(stream.connections).toBeGreaterThanOrEqual(2);
    await stream.close();

    // One log line per restart step.
    const log = server.log();
    expect(log).toMatch(/"msg":"embedded database exited unexpectedly; restarting it"/);
    expect(log).toMatch(/"msg":"embedded database: restart attempt","attempt":1/);
    expect(log).toMatch(/"msg":"embedded database is back"/);
    expect(log).toMatch(/"msg":"events: stream closed by the server".*"reason":"unavailable"/);
    expect(log).not.toMatch(/"level":"error","msg":"unhandled error"/);

    // The restarted database is as tied to the server as the first: a SIGKILLed server leaves none behind.
    server.child.kill("SIGKILL");
    await server.exited;
    await until(
      () => postgresProcessesFor(dataDir) === 0,
      "no postgres left after the server's SIGKILL",
      10_000,
    );
  });
});
