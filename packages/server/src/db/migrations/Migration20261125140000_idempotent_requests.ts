import { Migration } from "@mikro-orm/migrations";

/** Stored answers of writes sent with an `Idempotency-Key` (entity `IdempotentRequest`). */
export class Migration20261125140000_idempotent_requests extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "idempotent_requests" ("api_key_id" uuid not null, "key" text not null, "fingerprint" text not null, "status" smallint not null, "workspace_slug" text null, "body" text not null, "created_at" timestamptz not null, constraint "idempotent_requests_pkey" primary key ("api_key_id", "key"))`,
    );
    this.addSql(
      `create index "idempotent_requests_created_at_index" on "idempotent_requests" ("created_at")`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotent_requests" cascade`);
  }
}
