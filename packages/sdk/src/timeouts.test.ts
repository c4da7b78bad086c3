// Time limits and cancellation against a real socket: a local server that accepts connections and never
// answers (or stalls mid-answer), so every abort goes through the real fetch and its connection.
import { afterEach, describe, expect, it } from "vitest";
import { createTracker, TrackerNetworkError, TrackerTimeoutError } from "./index.js";
import { type LocalServer, localServer, neverAnswer, sendJson } from "./test/local-server.js";

let server: LocalServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error,
  );
}

describe("time limits", () => {
  it("aborts an attempt that gets no answer in time, retries a GET, then throws TrackerTimeoutError", async () => {
    server = await localServer(neverAnswer);
    const tracker = createTracker({ baseUrl: server.url, apiKey: "trk_x", timeoutMs: 150, maxRetries: 1 });

    const started = performance.now();
    const err = await rejection(tracker.users.list());

    expect(err).toBeInstanceOf(TrackerTimeoutError);
    // Code that handles an unreachable server handles a timeout too.
    expect(err).toBeInstanceOf(TrackerNetworkError);
    expect(err).toMatchObject({ timeoutMs: 150, method: "GET", path: "/api/v1/users", attempts: 2 });
    expect((err as Error).message).toMatch(/^GET \/api\/v1\/users timed out after 150 ms/);
    expect(server.requests).toHaveLength(2);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("retries an authenticated POST that timed out with the same key, and not a POST without an API key", async () => {
    server = await localServer(neverAnswer);
    const keyed = createTracker({ baseUrl: server.url, apiKey: "trk_x", timeoutMs: 100, maxRetries: 2 });

    await expect(keyed.issues.create({ team: "ENG", title: "Once" })).rejects.toBeInstanceOf(
      TrackerTimeoutError,
    );
    const keys = server.requests.map((r) => r.headers["idempotency-key"]);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toEqual(expect.any(String));

    const anonymous = createTracker({ baseUrl: server.url, apiKey: "", timeoutMs: 100, maxRetries: 2 });
    const err = await rejection(anonymous.invites.accept({ token: "inv_1", name: "Ada" }));
    expect(err).toMatchObject({ method: "POST", path: "/api/v1/invites/accept", attempts: 1 });
    expect(server.requests).toHaveLength(4);
  });

  it("lets one call set its own limit, or none", async () => {
    // Answers the first request after 400 ms, the others never.
    server = await localServer((_req, res, index) => {
      if (index === 0) setTimeout(() => sendJson(res, 200, { users: [] }), 400);
    });
    const tracker = createTracker({ baseUrl: server.url, timeoutMs: 100, maxRetries: 0 });

    await expect(tracker.users.list({ timeoutMs: 0 })).resolves.toEqual([]);

    const relaxed = createTracker({ baseUrl: server.url, timeoutMs: 0, maxRetries: 0 });
    await expect(relaxed.teams.list({ timeoutMs: 120 })).rejects.toMatchObject({
      name: "TrackerTimeoutError",
      timeoutMs: 120,
      path: "/api/v1/teams",
    });
  });

  it("bounds the whole answer: headers followed by a stalled body time out too", async () => {
    server = await localServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"users": [');
    });
    const tracker = createTracker({ baseUrl: server.url, timeoutMs: 150, maxRetries: 0 });

    await expect(tracker.users.list()).rejects.toBeInstanceOf(TrackerTimeoutError);
  });

  it("leaves no timer behind once a call is answered, so a script's process can exit", async () => {
    server = await localServer((_req, res) => sendJson(res, 200, { users: [] }));
    const tracker = createTracker({ baseUrl: server.url, timeoutMs: 60_000 });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

    const before = timers();
    await tracker.users.list();
    await tracker.users.list({ timeoutMs: 45_000 });
    // At most as many as before: a timer of an earlier test may have ended meanwhile, none was added.
    expect(timers()).toBeLessThanOrEqual(before);
  });
});

describe("cancellation", () => {
  it("rejects with the signal's AbortError, not a timeout, when the caller aborts", async () => {
    server = await localServer(neverAnswer);
    const tracker = createTracker({ baseUrl: server.url, timeoutMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);

    const started = performance.now();
    const err = await rejection(tracker.users.list({ signal: controller.signal }));

    expect(err).not.toBeInstanceOf(TrackerNetworkError);
    expect(err).toMatchObject({ name: "AbortError" });
    expect(err).toBe(controller.signal.reason);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("rejects with the caller's own reason, also while waiting between retries", async () => {
    server = await localServer((_req, res) => {
      res.writeHead(503, { "content-type": "application/problem+json", "retry-after": "30" });
      res.end(JSON.stringify({ code: "service_unavailable", status: 503, title: "Unavailable", detail: "" }));
    });
    const tracker = createTracker({ baseUrl: server.url });
    const reason = new Error("the user closed the page");
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 100);

    const started = performance.now();
    await expect(tracker.users.list({ signal: controller.signal })).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("does not start a call whose signal is already aborted", async () => {
    server = await localServer(neverAnswer);
    const tracker = createTracker({ baseUrl: server.url });

    await expect(tracker.users.list({ signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(server.requests).toHaveLength(0);
  });
});
