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

  it("does not retry a POST answered 503: the server may have acted", async () => {
    const fake = fakeFetch(problem(503, "service_unavailable", {}, { "retry-after": "0" }), json({}));
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    await expect(tracker.issues.create({ team: "ENG", title: "Once" })).rejects.toMatchObject({
      status: 503,
      code: "service_unavailable",
    });
    expect(fake.requests).toHaveLength(1);
  });

  it("does not retry a POST whose connection was reset mid-request", async () => {
    const fake = fakeFetch(connectionReset(), json({}));
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    await expect(tracker.comments.create("ENG-1", { body: "hi" })).rejects.toBeInstanceOf(
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
