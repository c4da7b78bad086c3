import { HttpProblem } from "./problem.js";

/**
 * Per-key token buckets: `perMinute` requests a minute sustained, with a burst of `burst`. Kept in the
 * instance's memory, so with several instances the limit applies per instance. 0 disables limiting.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly ratePerMs: number;

  constructor(
    readonly perMinute: number,
    readonly burst = Math.max(1, Math.ceil(perMinute / 6)),
    private readonly now: () => number = Date.now,
  ) {
    this.ratePerMs = perMinute / 60_000;
  }

  /**
   * Takes one token for `key`, or throws 429 `rate_limited` with the seconds until one is free; `who` names
   * what the bucket counts in the problem's detail.
   */
  take(key: string, who = "This key"): void {
    if (this.perMinute <= 0) return;
    const t = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: t };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (t - bucket.at) * this.ratePerMs);
    bucket.at = t;
    if (bucket.tokens < 1) {
      this.buckets.set(key, bucket);
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerMs / 1000));
      throw new HttpProblem(
        429,
        "rate_limited",
        "Too many requests",
        `${who} is over ${this.perMinute} requests a minute; retry after ${retryAfter} s.`,
        { retryAfter },
      );
    }
    bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    // Full buckets carry no information: drop them now and then so idle keys don't accumulate.
    if (this.buckets.size > 10_000) {
      for (const [k, b] of this.buckets)
        if (b.tokens + (t - b.at) * this.ratePerMs >= this.burst) this.buckets.delete(k);
    }
  }

  /** Returns the token `take` took for `key`: for an answer that does not count (a 304). */
  giveBack(key: string): void {
    const bucket = this.buckets.get(key);
    if (bucket) bucket.tokens = Math.min(this.burst, bucket.tokens + 1);
  }
}
