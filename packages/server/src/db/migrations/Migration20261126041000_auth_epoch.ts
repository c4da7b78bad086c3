import { Migration } from "@mikro-orm/migrations";

/**
 * `auth_epoch` (entity `http/auth-epoch.entity.ts`): a single row whose version every change to what
 * authentication reads bumps in its own transaction, so a read that selects it in its statement knows
 * whether a caller authenticated earlier is still exactly what authenticating now would give
 * (`http/caller-cache.ts`). Statement triggers: one bump per statement, however many rows it touches.
 * - `api_keys`: deleted, or its token, scope, workspace, active workspace or owner changed (not
 *   `last_used_at`, written once a minute per key in use). A new key bumps nothing: no server knows it yet.
 * - `memberships`: any insert, update or delete (who reaches which workspace, with which role).
 * - `workspaces`: renamed (slug, name) or deleted.
 * - `users`: renamed (name, email) or deleted.
 * Deletes cascading from a workspace or a user fire the triggers of the rows they delete.
 */
export class Migration20261126041000_auth_epoch extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "auth_epoch" ("id" smallint not null, "version" bigint not null default 0, constraint "auth_epoch_pkey" primary key ("id"))`,
    );
    this.addSql(`insert into "auth_epoch" ("id", "version") values (1, 0)`);
    this.addSql(`create function auth_epoch_bump() returns trigger language plpgsql as $$
      begin
        update auth_epoch set version = version + 1 where id = 1;
        return null;
      end $$`);
    this.addSql(`create trigger api_keys_auth_epoch
      after delete or update of token_hash, scope, workspace_id, active_workspace_id, user_id on api_keys
      for each statement execute function auth_epoch_bump()`);
    this.addSql(`create trigger memberships_auth_epoch
      after insert or update or delete on memberships
      for each statement execute function auth_epoch_bump()`);
    this.addSql(`create trigger workspaces_auth_epoch
      after delete or update of slug, name on workspaces
      for each statement execute function auth_epoch_bump()`);
    this.addSql(`create trigger users_auth_epoch
      after delete or update of name, email on users
      for each statement execute function auth_epoch_bump()`);
  }

  override async down(): Promise<void> {
    for (const table of ["api_keys", "memberships", "workspaces", "users"])
      this.addSql(`drop trigger ${table}_auth_epoch on ${table}`);
    this.addSql(`drop function auth_epoch_bump()`);
    this.addSql(`drop table "auth_epoch"`);
  }
}
