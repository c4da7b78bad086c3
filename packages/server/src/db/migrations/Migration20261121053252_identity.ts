import { Migration } from "@mikro-orm/migrations";

export class Migration20261121053252_identity extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "users" ("id" uuid not null, "email" text not null, "name" text not null, "created_at" timestamptz not null, constraint "users_pkey" primary key ("id"))',
    );
    this.addSql('alter table "users" add constraint "users_email_unique" unique ("email")');
    this.addSql(
      'create table "workspaces" ("id" uuid not null, "name" text not null, "slug" text not null, "created_at" timestamptz not null, constraint "workspaces_pkey" primary key ("id"))',
    );
    this.addSql('alter table "workspaces" add constraint "workspaces_slug_unique" unique ("slug")');
    this.addSql(
      'create table "teams" ("id" uuid not null, "workspace_id" uuid not null, "key" text not null, "name" text not null, "personal" boolean not null default false, "owner_id" uuid null, "cycles_enabled" boolean not null default false, "cycle_length_weeks" int not null default 2, "estimate_scale" text check ("estimate_scale" in (\'none\', \'linear\', \'fibonacci\', \'exponential\', \'tshirt\')) not null default \'none\', "issue_counter" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "teams_pkey" primary key ("id"))',
    );
    this.addSql(
      'alter table "teams" add constraint "teams_workspace_id_key_unique" unique ("workspace_id", "key")',
    );
    this.addSql(
      'create table "workflow_states" ("id" uuid not null, "team_id" uuid not null, "name" text not null, "type" text check ("type" in (\'backlog\', \'unstarted\', \'started\', \'completed\', \'canceled\')) not null, "color" text not null, "position" int not null, constraint "workflow_states_pkey" primary key ("id"))',
    );
    this.addSql(
      'alter table "workflow_states" add constraint "workflow_states_team_id_name_unique" unique ("team_id", "name")',
    );
    this.addSql(
      'create table "team_members" ("id" uuid not null, "team_id" uuid not null, "user_id" uuid not null, "created_at" timestamptz not null, constraint "team_members_pkey" primary key ("id"))',
    );
    this.addSql('create index "team_members_user_id_index" on "team_members" ("user_id")');
    this.addSql(
      'alter table "team_members" add constraint "team_members_team_id_user_id_unique" unique ("team_id", "user_id")',
    );
    this.addSql(
      'create table "memberships" ("id" uuid not null, "workspace_id" uuid not null, "user_id" uuid not null, "role" text check ("role" in (\'admin\', \'member\', \'guest\')) not null, "created_at" timestamptz not null, constraint "memberships_pkey" primary key ("id"))',
    );
    this.addSql('create index "memberships_user_id_index" on "memberships" ("user_id")');
    this.addSql(
      'alter table "memberships" add constraint "memberships_workspace_id_user_id_unique" unique ("workspace_id", "user_id")',
    );
    this.addSql(
      'create table "invites" ("id" uuid not null, "workspace_id" uuid not null, "email" text not null, "role" text check ("role" in (\'admin\', \'member\', \'guest\')) not null, "token_hash" text not null, "invited_by_id" uuid null, "expires_at" timestamptz not null, "accepted_at" timestamptz null, "created_at" timestamptz not null, constraint "invites_pkey" primary key ("id"))',
    );
    this.addSql('alter table "invites" add constraint "invites_token_hash_unique" unique ("token_hash")');
    this.addSql('create index "invites_workspace_id_index" on "invites" ("workspace_id")');
    this.addSql(
      'create table "api_keys" ("id" uuid not null, "user_id" uuid not null, "scope" text check ("scope" in (\'workspace\', \'account\')) not null, "workspace_id" uuid null, "active_workspace_id" uuid null, "name" text not null, "token_hash" text not null, "last_used_at" timestamptz null, "created_at" timestamptz not null, constraint "api_keys_pkey" primary key ("id"))',
    );
    this.addSql('alter table "api_keys" add constraint "api_keys_token_hash_unique" unique ("token_hash")');
    this.addSql('create index "api_keys_user_id_index" on "api_keys" ("user_id")');
    this.addSql(
      'alter table "teams" add constraint "teams_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "teams" add constraint "teams_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "workflow_states" add constraint "workflow_states_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "team_members" add constraint "team_members_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "team_members" add constraint "team_members_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "memberships" add constraint "memberships_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "memberships" add constraint "memberships_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "invites" add constraint "invites_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "invites" add constraint "invites_invited_by_id_foreign" foreign key ("invited_by_id") references "users" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "api_keys" add constraint "api_keys_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "api_keys" add constraint "api_keys_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "api_keys" add constraint "api_keys_active_workspace_id_foreign" foreign key ("active_workspace_id") references "workspaces" ("id") on update cascade on delete set null',
    );
  }
}
