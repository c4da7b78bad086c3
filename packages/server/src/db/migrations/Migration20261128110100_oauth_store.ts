import { Migration } from "@mikro-orm/migrations";

/**
 * `oauth_store`: everything the OAuth authorization server (`oauth/provider.ts`) keeps, by model kind
 * (`AccessToken`, `RefreshToken`, `AuthorizationCode`, `DeviceCode`, `Client`, `Grant`, `Session`,
 * `Interaction`, ...), in PostgreSQL so that every instance serving the database sees the same grants.
 * Rows are keyed by the SHA-256 of the model's id (for tokens, the token itself), never the id: a copy
 * of the table holds no usable token. `grant_id`, `user_code` and `uid` are the adapter's other lookups.
 *
 * Deleting an access token (revocation, or a whole grant revoked when a refresh token is reused) bumps
 * `auth_epoch` (migration `…_auth_epoch`), so a caller cached by its token is read afresh at once.
 */
export class Migration20261128110100_oauth_store extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "oauth_store" (
      "kind" text not null, "id_hash" text not null, "payload" jsonb not null,
      "grant_id" text null, "user_code" text null, "uid" text null,
      "expires_at" timestamptz null, "consumed_at" timestamptz null,
      constraint "oauth_store_pkey" primary key ("kind", "id_hash"))`);
    this.addSql(
      `create index "oauth_store_grant_id_index" on "oauth_store" ("grant_id") where grant_id is not null`,
    );
    this.addSql(
      `create index "oauth_store_user_code_index" on "oauth_store" ("user_code") where user_code is not null`,
    );
    this.addSql(`create index "oauth_store_uid_index" on "oauth_store" ("uid") where uid is not null`);
    this.addSql(
      `create index "oauth_store_expires_at_index" on "oauth_store" ("expires_at") where expires_at is not null`,
    );
    this.addSql(`create function oauth_store_auth_epoch_bump() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from old_rows where kind = 'AccessToken') then
          update auth_epoch set version = version + 1 where id = 1;
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger oauth_store_auth_epoch after delete on oauth_store
      referencing old table as old_rows for each statement execute function oauth_store_auth_epoch_bump()`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger oauth_store_auth_epoch on oauth_store`);
    this.addSql(`drop function oauth_store_auth_epoch_bump()`);
    this.addSql(`drop table "oauth_store"`);
  }
}
