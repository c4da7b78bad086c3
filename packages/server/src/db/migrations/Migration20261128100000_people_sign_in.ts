import { Migration } from "@mikro-orm/migrations";

/**
 * People sign in with a password and hold a session (`modules/sessions/session.entity.ts`):
 * - `users.password_hash`: the Argon2id PHC string, null until a password is set.
 * - `sessions`: one row per signed-in browser, found by the SHA-256 of the cookie's token.
 * Sessions are read by authentication, so deleting one (sign out) or re-pointing it bumps `auth_epoch`
 * (migration `…_auth_epoch`) and a server's cached caller for it stops holding.
 */
export class Migration20261128100000_people_sign_in extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "users" add column "password_hash" text null`);
    this.addSql(
      `create table "sessions" ("id" uuid not null, "user_id" uuid not null, "token_hash" text not null, "active_workspace_id" uuid null, "created_at" timestamptz not null, "expires_at" timestamptz not null, constraint "sessions_pkey" primary key ("id"))`,
    );
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id")`);
    this.addSql(`alter table "sessions" add constraint "sessions_token_hash_unique" unique ("token_hash")`);
    this.addSql(
      `alter table "sessions" add constraint "sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "sessions" add constraint "sessions_active_workspace_id_foreign" foreign key ("active_workspace_id") references "workspaces" ("id") on update cascade on delete set null`,
    );
    this.addSql(`create trigger sessions_auth_epoch
      after delete or update of token_hash, user_id, active_workspace_id on sessions
      for each statement execute function auth_epoch_bump()`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "sessions"`);
    this.addSql(`alter table "users" drop column "password_hash"`);
  }
}
