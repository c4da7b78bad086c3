import { defineEntity, p } from "@mikro-orm/core";

/**
 * The rate limits' token buckets, shared by every instance (`rate-limit.ts`, statements in
 * `rate-limit.query.ts`): a key's tokens as of `updatedAt`, refilled by the time since. An unlogged table
 * (the migration): a count lost in a crash is a minute's limit forgotten, and its writes skip the WAL.
 */
export const RateLimitBucket = defineEntity({
  name: "RateLimitBucket",
  tableName: "rate_limit_buckets",
  properties: {
    key: p.text().primary(),
    tokens: p.double(),
    updatedAt: p.datetime(),
  },
});
