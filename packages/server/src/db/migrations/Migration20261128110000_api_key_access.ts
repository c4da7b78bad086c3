import { Migration } from "@mikro-orm/migrations";

/**
 * API keys get an access level (`read`, `write`, `admin`: the contract's `ApiKeyAccess`) and an optional
 * expiry. Existing keys become `admin`, full access as keys had until now, so none stops working; the
 * column's default says the same for keys inserted without one. Both are read by authentication, so the
 * `auth_epoch` trigger (migration `…_auth_epoch`) also fires when they change.
 */
export class Migration20261128110000_api_key_access extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "api_keys" add column "access" text check ("access" in ('read', 'write', 'admin')) not null default 'admin', add column "expires_at" timestamptz null`,
    );
    this.addSql(`drop trigger api_keys_auth_epoch on api_keys`);
    this.addSql(`create trigger api_keys_auth_epoch
      after delete or update of token_hash, scope, access, expires_at, workspace_id, active_workspace_id, user_id
      on api_keys for each statement execute function auth_epoch_bump()`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger api_keys_auth_epoch on api_keys`);
    this.addSql(`create trigger api_keys_auth_epoch
      after delete or update of token_hash, scope, workspace_id, active_workspace_id, user_id on api_keys
      for each statement execute function auth_epoch_bump()`);
    this.addSql(`alter table "api_keys" drop column "access", drop column "expires_at"`);
  }
}
