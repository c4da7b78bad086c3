import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../db/sql.js";
import { q } from "../db/sql-fragment.js";
import type { SharedBuckets } from "./rate-limit.js";

/**
 * The rate limits' buckets in PostgreSQL (`rate_limit_buckets`, entity `rate-limit-bucket.entity.ts`), so
 * every instance counts against the same ones (`rate-limit.ts`). `name` keeps one limiter's keys apart
 * from another's (`api`, `oauth`).
 */
export function sharedBuckets(em: EntityManager, name: string): SharedBuckets {
  const prefix = `${name}:`;
  return {
    async sync(keys, spent, { perMinute, burst }) {
      const rows = await syncBuckets(
        em,
        keys.map((key) => prefix + key),
        spent,
        perMinute / 60,
        burst,
      );
      return rows.map((row) => ({ key: row.key.slice(prefix.length), tokens: row.tokens }));
    },
  };
}

/**
 * One statement for a whole batch: each bucket refilled at `perSecond` for the time since it was last
 * written (up to `burst`), less what was spent, never below `-burst` (an overdraft from instances
 * spending at once is paid back, within reason). A new bucket starts full. The rows are taken in key
 * order, so two instances syncing the same keys wait for each other instead of deadlocking.
 */
async function syncBuckets(
  em: EntityManager,
  keys: string[],
  spent: number[],
  perSecond: number,
  burst: number,
): Promise<{ key: string; tokens: number }[]> {
  // `excluded.tokens` is the full bucket less what was spent: the update reads the spent count back from it.
  return sql<{ key: string; tokens: number }>(
    em,
    q`insert into rate_limit_buckets as b (key, tokens, updated_at)
      select k, ${burst}::float8 - s, now() from unnest(${keys}::text[], ${spent}::float8[]) as t(k, s) order by k
      on conflict (key) do update
        set tokens = greatest(-${burst}::float8,
              least(${burst}::float8, b.tokens + extract(epoch from now() - b.updated_at) * ${perSecond}::float8)
              - (${burst}::float8 - excluded.tokens)),
            updated_at = now()
      returning key, tokens`,
    { prepare: true },
  );
}

/** Buckets not written for an hour: full again by now (a bucket refills within a minute), so nothing is lost. */
export async function pruneRateLimitBuckets(em: EntityManager): Promise<number> {
  const rows = await sql(
    em,
    q`delete from rate_limit_buckets where updated_at < now() - interval '1 hour' returning 1`,
  );
  return rows.length;
}
