import { HttpProblem } from "./problem.js";

/**
 * Where the instances meet to share their buckets (`rate-limit.query.ts`, table `rate_limit_buckets`):
 * `sync` adds what this instance spent from each bucket since its last sync to the shared bucket,
 * refilled for the time that passed, and answers what each shared bucket holds now.
 */
export interface SharedBuckets {
  sync(
    keys: string[],
    spent: number[],
    limit: { perMinute: number; burst: number },
  ): Promise<{ key: string; tokens: number }[]>;
}

export interface RateLimiterOptions {
  /** The most a bucket holds: requests that may come at once. Default: a sixth of a minute's. */
  burst?: number;
  now?: () => number;
  /** Set: the buckets are shared by every instance that syncs to the same place. */
  shared?: SharedBuckets;
  /** How often what was spent is synced at the latest (ms). Default 1 s. */
  syncIntervalMs?: number;
  /** A sync failed (the database is away): the counts it carried stay this instance's alone. */
  onSyncError?: (err: unknown) => void;
}

interface Bucket {
  tokens: number;
  at: number;
  /** Tokens taken here (less those given back) since the last sync began. */
  unsynced: number;
}

/**
 * Per-key token buckets: `perMinute` requests a minute sustained, with a burst of `burst`. 0 disables
 * limiting.
 *
 * With `shared`, the limit is the same for all instances together. Each request is still decided in
 * this instance's memory, at no cost to the request; what each instance spent is added to the shared
 * bucket in PostgreSQL, in one statement for every key that changed, at least once a second and as soon
 * as a key has spent `syncEvery` (a twentieth of the burst, at least 1) since its last sync; the answer
 * replaces the local count. So an instance can overspend a key by what it has not yet heard the others
 * spend: with N instances, at most (N − 1) × `syncEvery` requests beyond the limit, plus what arrives
 * during one round trip to the database, and an overdraft is paid back before the key gets more.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly ratePerMs: number;
  readonly burst: number;
  /** How many tokens a key spends before its bucket is synced at once, rather than on the timer. */
  readonly syncEvery: number;
  private readonly now: () => number;
  private readonly dirty = new Set<string>();
  private syncing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private soon = false;

  constructor(
    readonly perMinute: number,
    private readonly options: RateLimiterOptions = {},
  ) {
    this.burst = options.burst ?? Math.max(1, Math.ceil(perMinute / 6));
    this.now = options.now ?? Date.now;
    this.ratePerMs = perMinute / 60_000;
    this.syncEvery = Math.max(1, Math.ceil(this.burst / 20));
  }

  /**
   * Takes one token for `key`, or throws 429 `rate_limited` with the seconds until one is free; `who` names
   * what the bucket counts in the problem's detail.
   */
  take(key: string, who = "This key"): void {
    if (this.perMinute <= 0) return;
    const t = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: t, unsynced: 0 };
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
    if (this.options.shared) this.spent(key, bucket, 1);
    // Full buckets carry no information: drop them now and then so idle keys don't accumulate.
    if (this.buckets.size > 10_000) {
      for (const [k, b] of this.buckets)
        if (!this.dirty.has(k) && b.tokens + (t - b.at) * this.ratePerMs >= this.burst)
          this.buckets.delete(k);
    }
  }

  /** Returns the token `take` took for `key`: for an answer that does not count (a 304). */
  giveBack(key: string): void {
    const bucket = this.buckets.get(key);
    if (!bucket) return;
    bucket.tokens = Math.min(this.burst, bucket.tokens + 1);
    if (this.options.shared) this.spent(key, bucket, -1);
  }

  /** Syncs what is unsynced now, and resolves once that sync (and any already running) is done. */
  async flush(): Promise<void> {
    while (this.syncing) await this.syncing;
    if (this.dirty.size) await this.sync();
  }

  private spent(key: string, bucket: Bucket, tokens: number): void {
    bucket.unsynced += tokens;
    this.dirty.add(key);
    if (bucket.unsynced >= this.syncEvery) this.syncSoon();
    else if (!this.timer)
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.syncSoon();
      }, this.options.syncIntervalMs ?? 1_000).unref();
  }

  /** One sync at a time: asked for while one runs, the next starts when it ends. */
  private syncSoon(): void {
    if (this.syncing) {
      this.soon = true;
      return;
    }
    if (this.dirty.size) void this.sync();
  }

  private sync(): Promise<void> {
    const shared = this.options.shared!;
    const keys = [...this.dirty].sort();
    this.dirty.clear();
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const spent = keys.map((key) => {
      const bucket = this.buckets.get(key);
      const n = bucket?.unsynced ?? 0;
      if (bucket) bucket.unsynced = 0;
      return n;
    });
    this.syncing = shared
      .sync(keys, spent, { perMinute: this.perMinute, burst: this.burst })
      .then((rows) => {
        const t = this.now();
        for (const row of rows) {
          const bucket = this.buckets.get(row.key);
          if (!bucket) continue;
          // The shared count, less what this instance spent while the statement ran.
          bucket.tokens = Math.min(this.burst, row.tokens - bucket.unsynced);
          bucket.at = t;
        }
      })
      .catch((err: unknown) => this.options.onSyncError?.(err))
      .finally(() => {
        this.syncing = undefined;
        if (this.soon) {
          this.soon = false;
          if (this.dirty.size) void this.sync();
        }
      });
    return this.syncing;
  }
}
