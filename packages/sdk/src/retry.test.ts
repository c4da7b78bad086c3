import { describe, expect, it } from "vitest";
import { createTracker, TrackerError, TrackerNetworkError } from "./index.js";
import { parseRetryAfter } from "./retry.js";
import { connectionReset, fakeFetch, json, problem } from "./test/fake-fetch.js";

const baseUrl = "http://tracker.test";
const rateLimited = (retryAfter: string) => problem(429, "rate_limited", {}, { "retry-after": retryAfter });
const user = { id: "u1", name: "Ada", email: "ada@example.com", role: "admin", isMe: true };

describe("retries", () => {
  it("retries a 429 after the Retry-After seconds, then returns the answer", async () => {
    const fake = fakeFetch(rateLimited("1"), json({ users: [user] }));
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    await expect(tracker.users.list()).resolves.toEqual([user]);

    expect(fake.requests).toHaveLength(2);
    const waited = fake.times[1]! - fake.times[0]!;
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(3000);
  });

  it("retries a 429 with Retry-After: 0 at once, even for a POST (the server refused before acting)", async () => {
    const team = { id: "t1", key: "ENG", name: "Engineering" };
    const fake = fakeFetch(rateLimited("0"), json({ team }, 201));
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    await expect(tracker.teams.create({ name: "Engineering", key: "ENG" })).resolves.toEqual(team);

    expect(fake.requests).toHaveLength(2);
    expect(fake.times[1]! - fake.times[0]!).toBeLessThan(500);
    // The retried POST carries the same body.
    expect(await fake.requests[1]!.json()).toEqual({ name: "Engineering", key: "ENG" });
  });

  it("does not retry a POST without an API key answered 503: the server keeps no key for it and may have acted", async () => {
    const fake = fakeFetch(problem(503, "service_unavailable", {}, { "retry-after": "0" }), json({}));
    const tracker = createTracker({ baseUrl, apiKey: "", fetch: fake.fetch });

    await expect(tracker.issues.create({ team: "ENG", title: "Once" })).rejects.toMatchObject({
      status: 503,
      code: "service_unavailable",
    });
    expect(fake.requests).toHaveLength(1);
  });

  it("waits out a server whose database restarts (503 service_unavailable with Retry-After) beyond maxRetries, with one key", async () => {
    const unavailable = () => problem(503, "service_unavailable", {}, { "retry-after": "0" });
    const issue = { identifier: "ENG-1" };
    const fake = fakeFetch(unavailable(), unavailable(), unavailable(), unavailable(), json({ issue }, 201));
    const tracker = createTracker({ baseUrl, apiKey: "trk_x", fetch: fake.fetch, maxRetries: 1 });

    await expect(tracker.issues.create({ team: "ENG", title: "Once" })).resolves.toMatchObject(issue);
    expect(fake.requests).toHaveLength(5);
    const keys = new Set(fake.requests.map((r) => r.headers.get("idempotency-key")));
    expect(keys.size).toBe(1);
  });

  it("gives up on a server that stays unavailable once maxUnavailableWaitMs is spent", async () => {
    const unavailable = () => problem(503, "service_unavailable", {}, { "retry-after": "1" });
    const fake = fakeFetch(...Array.from({ length: 10 }, unavailable));
    const tracker = createTracker({
      baseUrl,
      apiKey: "trk_x",
      fetch: fake.fetch,
      maxRetries: 0,
      maxUnavailableWaitMs: 2_000,
    });

    await expect(tracker.users.list()).rejects.toMatchObject({ status: 503, code: "service_unavailable" });
    // Two waits of one second fit the budget: three attempts in all.
    expect(fake.requests).toHaveLength(3);
  });

  it("does not retry a POST without an API key whose connection was reset mid-request", async () => {
    const fake = fakeFetch(connectionReset(), json({}));
    const tracker = createTracker({ baseUrl, apiKey: "", fetch: fake.fetch });

    await expect(tracker.invites.accept({ token: "inv_1", name: "Ada" })).rejects.toBeInstanceOf(
      TrackerNetworkError,
    );
    expect(fake.requests).toHaveLength(1);
  });

  it("retries an idempotent GET on 502/503/504 with backoff", async () => {
    const fake = fakeFetch(
      problem(502, "internal_error"),
      problem(504, "internal_error"),
      json({ users: [user] }),
    );
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    await expect(tracker.users.list()).resolves.toEqual([user]);
    expect(fake.requests).toHaveLength(3);
    // Backoff, not a hot loop: at least half the first step (300 ms) plus half the second.
    expect(fake.times[2]! - fake.times[0]!).toBeGreaterThanOrEqual(400);
  });

  it("retries an idempotent DELETE after a connection reset", async () => {
    const fake = fakeFetch(connectionReset(), json({ ok: true }));
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    await expect(tracker.apiKeys.delete("k1")).resolves.toBeUndefined();
    expect(fake.requests.map((r) => r.method)).toEqual(["DELETE", "DELETE"]);
  });

  it("stops after maxRetries and throws the last answer", async () => {
    const fake = fakeFetch(
      rateLimited("0"),
      rateLimited("0"),
      rateLimited("0"),
      rateLimited("0"),
      json({ users: [] }),
    );
    const tracker = createTracker({ baseUrl, fetch: fake.fetch, maxRetries: 3 });

    const err = await tracker.users.list().catch((e: unknown) => e);

    expect(err).toBeInstanceOf(TrackerError);
    expect(err).toMatchObject({ status: 429, code: "rate_limited" });
    expect(fake.requests).toHaveLength(4);
  });

  it("makes a single attempt with maxRetries: 0", async () => {
    const fake = fakeFetch(rateLimited("0"), json({ users: [] }));
    const tracker = createTracker({ baseUrl, fetch: fake.fetch, maxRetries: 0 });

    await expect(tracker.users.list()).rejects.toMatchObject({ code: "rate_limited" });
    expect(fake.requests).toHaveLength(1);
  });

  it("applies the same retries to the raw client", async () => {
    const fake = fakeFetch(rateLimited("0"), json({ users: [user] }));
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    const { data } = await tracker.raw.GET("/users");
    expect(data?.users).toEqual([user]);
    expect(fake.requests).toHaveLength(2);
  });
});

describe("idempotent writes", () => {
  const issue = { id: "i1", identifier: "ENG-1", title: "Once" };
  const keyOf = (request: Request) => request.headers.get("idempotency-key");

  it("sends an Idempotency-Key on every POST and PATCH, fresh per call, and none on GET, PUT or DELETE", async () => {
    const fake = fakeFetch(
      json({ issue }, 201),
      json({ issue }, 201),
      json({ issue }),
      json({ users: [] }),
      json({ default: {} }),
      json({ ok: true }),
    );
    const tracker = createTracker({ baseUrl, apiKey: "trk_x", fetch: fake.fetch });

    await tracker.issues.create({ team: "ENG", title: "Once" });
    await tracker.issues.create({ team: "ENG", title: "Once" });
    await tracker.issues.update("ENG-1", { title: "Twice" });
    await tracker.users.list();
    await tracker.viewDefaults.put({ viewKey: "my-issues" });
    await tracker.apiKeys.delete("k1");

    const [first, second, patch, ...others] = fake.requests.map(keyOf);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect([first, second, patch]).toEqual([
      expect.stringMatching(uuid),
      expect.stringMatching(uuid),
      expect.stringMatching(uuid),
    ]);
    expect(new Set([first, second, patch]).size).toBe(3);
    expect(others).toEqual([null, null, null]);
  });

  it("retries an authenticated POST after a connection reset, with the same key and body", async () => {
    const fake = fakeFetch(connectionReset(), json({ issue }, 201));
    const tracker = createTracker({ baseUrl, apiKey: "trk_x", fetch: fake.fetch });

    await expect(tracker.issues.create({ team: "ENG", title: "Once" })).resolves.toEqual(issue);

    expect(fake.requests).toHaveLength(2);
    expect(keyOf(fake.requests[1]!)).toBe(keyOf(fake.requests[0]!));
    expect(await fake.requests[1]!.json()).toEqual({ team: "ENG", title: "Once" });
  });

  it("retries an authenticated PATCH answered 502, 503 or 504, after Retry-After when given", async () => {
    const fake = fakeFetch(
      problem(503, "service_unavailable", {}, { "retry-after": "1" }),
      new Response("<h1>Bad Gateway</h1>", { status: 502, headers: { "content-type": "text/html" } }),
      json({ issue }),
    );
    const tracker = createTracker({ baseUrl, apiKey: "trk_x", fetch: fake.fetch });

    await expect(tracker.issues.update("ENG-1", { title: "Once" })).resolves.toEqual(issue);

    expect(fake.requests.map(keyOf)).toEqual(Array(3).fill(keyOf(fake.requests[0]!)));
    expect(fake.times[1]! - fake.times[0]!).toBeGreaterThanOrEqual(950);
  });

  it("sends the caller's key on every attempt", async () => {
    const fake = fakeFetch(connectionReset(), json({ issue }, 201));
    const tracker = createTracker({ baseUrl, apiKey: "trk_x", fetch: fake.fetch });

    await tracker.issues.create({ team: "ENG", title: "Once" }, { idempotencyKey: "import-row-17" });

    expect(fake.requests.map(keyOf)).toEqual(["import-row-17", "import-row-17"]);
  });

  it("keeps an Idempotency-Key header set on a raw call", async () => {
    const fake = fakeFetch(problem(503, "service_unavailable"), json({ issue }, 201));
    const tracker = createTracker({ baseUrl, apiKey: "trk_x", fetch: fake.fetch, maxRetries: 1 });

    const { data } = await tracker.raw.POST("/issues", {
      body: { team: "ENG", title: "Once" },
      headers: { "Idempotency-Key": "raw-key-1" },
    });

    expect(data?.issue).toEqual(issue);
    expect(fake.requests.map(keyOf)).toEqual(["raw-key-1", "raw-key-1"]);
  });

  it("retries 409 idempotency_in_progress after its Retry-After, but not any other 409", async () => {
    const inProgress = () => problem(409, "idempotency_in_progress", {}, { "retry-after": "1" });
    const fake = fakeFetch(inProgress(), json({ issue }, 201), problem(409, "conflict"), json({}));
    const tracker = createTracker({ baseUrl, apiKey: "trk_x", fetch: fake.fetch });

    await expect(tracker.issues.create({ team: "ENG", title: "Once" })).resolves.toEqual(issue);
    expect(fake.times[1]! - fake.times[0]!).toBeGreaterThanOrEqual(950);
    expect(keyOf(fake.requests[1]!)).toBe(keyOf(fake.requests[0]!));

    await expect(tracker.teams.create({ name: "Engineering", key: "ENG" })).rejects.toMatchObject({
      status: 409,
      code: "conflict",
    });
    expect(fake.requests).toHaveLength(3);
  });

  it("gives up on idempotency_in_progress after maxRetries and throws its code", async () => {
    const inProgress = () => problem(409, "idempotency_in_progress", {}, { "retry-after": "0" });
    const fake = fakeFetch(inProgress(), inProgress());
    const tracker = createTracker({ baseUrl, apiKey: "trk_x", fetch: fake.fetch, maxRetries: 1 });

    await expect(tracker.comments.create("ENG-1", { body: "hi" })).rejects.toMatchObject({
      status: 409,
      code: "idempotency_in_progress",
    });
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-01-15T09:30:00Z");

  it("reads delta-seconds", () => {
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter("7", now)).toBe(7000);
  });

  it("reads an HTTP date, never negative", () => {
    expect(parseRetryAfter("Wed, 15 Jan 2025 09:30:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Wed, 15 Jan 2025 09:00:00 GMT", now)).toBe(0);
  });

  it("caps the wait at 60 seconds", () => {
    expect(parseRetryAfter("3600", now)).toBe(60_000);
    expect(parseRetryAfter("Thu, 16 Jan 2025 09:30:00 GMT", now)).toBe(60_000);
  });

  it("ignores a missing or unreadable header", () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });
});
