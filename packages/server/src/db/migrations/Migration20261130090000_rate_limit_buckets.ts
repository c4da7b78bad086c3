import { Migration } from "@mikro-orm/migrations";

/**
 * `rate_limit_buckets` (entity `http/rate-limit-bucket.entity.ts`): the rate limits' buckets, shared by
 * every instance. Unlogged: the counts are a minute's worth, and not worth a WAL record per sync.
 */
export class Migration20261130090000_rate_limit_buckets extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create unlogged table "rate_limit_buckets" ("key" text not null, "tokens" double precision not null, "updated_at" timestamptz not null, constraint "rate_limit_buckets_pkey" primary key ("key"))`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "rate_limit_buckets"`);
  }
}
