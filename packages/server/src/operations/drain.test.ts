import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { privateFolder, until } from "../test/operations-kit.js";
import { embeddedDatabaseUrl, postgresProcessesFor, startServerProcess } from "../test/server-process.js";

const { root, onCleanup } = privateFolder("drain");

/**
 * Starts a server on a fresh folder with an event stream open, and holds ENG's row locked, so an issue
 * create waits on it. (The stream opens first: a new stream waits for older transactions to end.)
 */
async function serverWithHeldTeam(name: string, env: Record<string, string> = {}) {
  const dataDir = path.join(root, name);
  const server = await startServerProcess({ TRACKER_DATA_DIR: dataDir, NODE_ENV: "development", ...env });
  onCleanup(() => server.stop());
  const stream = await fetch(`${server.url}/api/v1/events`, {
    headers: { authorization: `Bearer ${server.demoKey}`, accept: "text/event-stream" },
  });
  expect(stream.status).toBe(200);
  const streamText = stream.text();
  streamText.catch(() => undefined);
  const holder = new pg.Client({ connectionString: embeddedDatabaseUrl(dataDir) });
  // The server's fast shutdown ends this session too.
  holder.on("error", () => undefined);
  await holder.connect();
  await holder.query("begin");
  await holder.query("select 1 from teams where key = 'ENG' for update");
  const create = fetch(`${server.url}/api/v1/issues`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.demoKey}`, "content-type": "application/json" },
    body: JSON.stringify({ team: "ENG", title: "Written while the server stops" }),
  });
  create.catch(() => undefined);
  // The create has reached its lock wait.
  await until(
    async () =>
      (
        await holder.query(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
        )
      ).rows[0].n > 0,
    "the create to wait on the lock",
  );
  return { dataDir, server, holder, create, streamText };
}

describe("SIGTERM", { timeout: 120_000 }, () => {
  it("drains: the request in flight finishes, new ones get 503, streams close with a retry hint, the database stops cleanly", async () => {
    const { dataDir, server, holder, create, streamText } = await serverWithHeldTeam("graceful");

    server.child.kill("SIGTERM");
    // New requests are turned away while the create is still in flight.
    let refused: Response | undefined;
    await until(async () => {
      const res = await fetch(`${server.url}/api/v1/users`, {
        headers: { authorization: `Bearer ${server.demoKey}` },
      });
      if (res.status === 503) refused = res;
      return refused !== undefined;
    }, "a 503 for a new request");
    expect(refused!.headers.get("retry-after")).toBe("1");
    expect(refused!.headers.get("connection")).toBe("close");
    expect(refused!.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await refused!.json()).toMatchObject({ status: 503, code: "service_unavailable" });
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: "draining" });

    // The stream ended with its retry hint and the reason.
    const text = await streamText;
    expect(text).toMatch(/retry: \d+\n: closing: the server is shutting down; reconnect with Last-Event-ID/);

    // The write in flight completes once its lock is free; then the server exits.
    await holder.query("commit");
    const created = await create;
    expect(created.status).toBe(201);
    const identifier = ((await created.json()) as { issue: { identifier: string } }).issue.identifier;
    expect(await server.exited).toBe(0);
    await holder.end().catch(() => undefined);
    expect(server.log()).toMatch(/"msg":"shutting down","signal":"SIGTERM"/);
    expect(postgresProcessesFor(dataDir)).toBe(0);
    // A clean stop removes the lock file; the next start needs no crash recovery, and the write is there.
    expect(existsSync(path.join(dataDir, "postmaster.pid"))).toBe(false);
    const again = await startServerProcess({ TRACKER_DATA_DIR: dataDir, NODE_ENV: "development" });
    onCleanup(() => again.stop());
    const read = await fetch(`${again.url}/api/v1/issues/${identifier}`, {
      headers: { authorization: `Bearer ${again.demoKey}` },
    });
    expect(read.status).toBe(200);
    expect(await again.stop()).toBe(0);
  });

  it("cuts off a request that outlasts the drain timeout instead of waiting for it", async () => {
    const { dataDir, server, holder, create } = await serverWithHeldTeam("bounded", {
      TRACKER_DRAIN_TIMEOUT_MS: "1000",
    });
    const started = Date.now();
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(create).rejects.toThrow();
    await holder.end().catch(() => undefined);
    expect(postgresProcessesFor(dataDir)).toBe(0);
  });
});
