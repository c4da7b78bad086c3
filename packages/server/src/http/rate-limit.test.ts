import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../server.js";
import { startAnotherInstance, startTestServer, type TestServer } from "../test/harness.js";
import { RateLimiter } from "./rate-limit.js";

describe("rate limiting", () => {
  let srv: TestServer;
  beforeAll(async () => {
    // A burst of 2 that refills one request every 5 s: a loaded machine cannot refill it mid-test.
    srv = await startTestServer({ rateLimitPerMinute: 12 });
  });
  afterAll(() => srv.close());

  it("answers 429 rate_limited with Retry-After once a key's burst is spent, per key", async () => {
    const a = await srv.bootstrap();
    const b = await srv.bootstrap();
    const api = srv.client(a.apiKey.token);
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await api.GET("/users")).response.status);
    expect(statuses).toEqual([200, 200]);
    const limited = await api.GET("/users");
    expect(limited.response.status).toBe(429);
    expect(limited.error!.code).toBe("rate_limited");
    expect(Number(limited.response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await srv.client(b.apiKey.token).GET("/users")).response.status).toBe(200);
  });
});

describe("rate limiting across instances", () => {
  let srv: TestServer;
  let other: RunningServer;
  // 120 a minute: a burst of 20, refilled two a second; each instance syncs after every request.
  const limit = { rateLimitPerMinute: 120 };
  beforeAll(async () => {
    srv = await startTestServer(limit);
    other = await startAnotherInstance(srv.databaseUrl, limit);
  });
  afterAll(async () => {
    await other?.close();
    await srv?.close();
  });

  it("counts one key's requests on two instances against one limit, not one limit each", async () => {
    const { apiKey } = await srv.bootstrap();
    const statuses: number[] = [];
    const started = Date.now();
    for (let i = 0; i < 40; i++) {
      // Alternating, as a balancer spreads one client's requests.
      const base = i % 2 ? other.url : srv.url;
      const res = await fetch(`${base}/api/v1/users`, {
        headers: { authorization: `Bearer ${apiKey.token}` },
      });
      statuses.push(res.status);
    }
    const seconds = (Date.now() - started) / 1000;
    const served = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // The burst, what refilled meanwhile, and the one request the other instance may not have heard of yet.
    expect(served).toBeGreaterThanOrEqual(20);
    expect(served).toBeLessThanOrEqual(20 + Math.ceil(seconds * 2) + 1);
    // Both instances refuse once the shared bucket is empty.
    expect(statuses.slice(-4)).toEqual([429, 429, 429, 429]);
    const [bucket] = await srv.query<{ tokens: number }>(
      "select tokens from rate_limit_buckets where key like 'api:%'",
    );
    expect(bucket!.tokens).toBeLessThan(1);
  });
});

describe("RateLimiter", () => {
  it("refills at the sustained rate", () => {
    let now = 0;
    const limiter = new RateLimiter(60, { burst: 2, now: () => now });
    limiter.take("k");
    limiter.take("k");
    expect(() => limiter.take("k")).toThrow(/retry after 1 s/);
    now += 1000;
    expect(() => limiter.take("k")).not.toThrow();
  });

  it("syncs what it spent to the shared buckets and takes their count", async () => {
    const synced: { keys: string[]; spent: number[] }[] = [];
    let shared = 10;
    const limiter = new RateLimiter(60, {
      burst: 10,
      now: () => 0,
      shared: {
        async sync(keys, spent) {
          synced.push({ keys, spent });
          // Another instance spent 8 of the bucket meanwhile.
          shared -= spent[0]! + 8;
          return [{ key: keys[0]!, tokens: shared }];
        },
      },
    });
    limiter.take("k");
    await limiter.flush();
    expect(synced).toEqual([{ keys: ["k"], spent: [1] }]);
    // 10 - 1 - 8: one token left for this instance, then 429.
    limiter.take("k");
    expect(() => limiter.take("k")).toThrow(/rate|retry/i);
  });

  it("is off at 0", () => {
    const limiter = new RateLimiter(0);
    for (let i = 0; i < 1000; i++) limiter.take("k");
  });
});
