import { Migration } from "@mikro-orm/migrations";

/**
 * Single sign-on (modules/sso): each workspace's OpenID Connect provider, the sign-ins on their way through
 * it, and the one workspace a session made by it reaches.
 */
export class Migration20261128170000_sso extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "sso_settings" ("id" uuid not null, "workspace_id" uuid not null, "issuer" text not null, "client_id" text not null, "client_secret_sealed" text not null, "allowed_domains" text[] not null default \'{}\', "enabled" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "sso_settings_pkey" primary key ("id"))',
    );
    this.addSql(
      'alter table "sso_settings" add constraint "sso_settings_workspace_id_unique" unique ("workspace_id")',
    );
    this.addSql(
      'create table "sso_logins" ("state_hash" text not null, "workspace_id" uuid not null, "code_verifier" text not null, "nonce" text not null, "redirect_uri" text not null, "return_to" text not null, "expires_at" timestamptz not null, constraint "sso_logins_pkey" primary key ("state_hash"))',
    );
    this.addSql(
      'alter table "sso_settings" add constraint "sso_settings_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "sso_logins" add constraint "sso_logins_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql('alter table "sessions" add column "sso_workspace_id" uuid null');
    this.addSql(
      'alter table "sessions" add constraint "sessions_sso_workspace_id_foreign" foreign key ("sso_workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
  }
}
