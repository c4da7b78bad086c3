import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test/harness.js";
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

describe("RateLimiter", () => {
  it("refills at the sustained rate", () => {
    let now = 0;
    const limiter = new RateLimiter(60, 2, () => now);
    limiter.take("k");
    limiter.take("k");
    expect(() => limiter.take("k")).toThrow(/retry after 1 s/);
    now += 1000;
    expect(() => limiter.take("k")).not.toThrow();
  });

  it("is off at 0", () => {
    const limiter = new RateLimiter(0);
    for (let i = 0; i < 1000; i++) limiter.take("k");
  });
});
