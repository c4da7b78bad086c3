import { Migration } from "@mikro-orm/migrations";

/**
 * Agents as app users of a workspace, issues delegated to them, and their sessions and activities
 * (openapi.yaml, "Agents").
 */
export class Migration20261202034235_agents extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "agent_sessions" ("id" uuid not null, "workspace_id" uuid not null, "issue_id" uuid not null, "agent_id" uuid not null, "creator_id" uuid null, "trigger" text check ("trigger" in (\'delegated\', \'mentioned\')) not null, "comment_id" uuid null, "state" text check ("state" in (\'pending\', \'active\', \'awaiting_input\', \'error\', \'complete\', \'stopped\')) not null, "state_at" timestamptz not null, "last_activity_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "agent_sessions_pkey" primary key ("id"))',
    );
    this.addSql(
      'create index "agent_sessions_issue_id_created_at_index" on "agent_sessions" ("issue_id", "created_at")',
    );
    this.addSql(
      'create index "agent_sessions_agent_id_created_at_index" on "agent_sessions" ("agent_id", "created_at")',
    );
    this.addSql(
      'create index "agent_sessions_creator_id_created_at_index" on "agent_sessions" ("creator_id", "created_at")',
    );
    this.addSql(
      'create table "agent_activities" ("id" uuid not null, "workspace_id" uuid not null, "session_id" uuid not null, "issue_id" uuid not null, "author_id" uuid null, "kind" text check ("kind" in (\'thought\', \'action\', \'elicitation\', \'response\', \'error\', \'prompt\', \'stop\')) not null, "body" text not null, "action" jsonb null, "created_at" timestamptz not null, constraint "agent_activities_pkey" primary key ("id"))',
    );
    this.addSql(
      'create index "agent_activities_session_id_created_at_index" on "agent_activities" ("session_id", "created_at")',
    );
    this.addSql(
      'create index "agent_activities_issue_id_created_at_index" on "agent_activities" ("issue_id", "created_at")',
    );
    this.addSql(
      'alter table "agent_sessions" add constraint "agent_sessions_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "agent_sessions" add constraint "agent_sessions_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "agent_sessions" add constraint "agent_sessions_agent_id_foreign" foreign key ("agent_id") references "users" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "agent_sessions" add constraint "agent_sessions_creator_id_foreign" foreign key ("creator_id") references "users" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "agent_sessions" add constraint "agent_sessions_comment_id_foreign" foreign key ("comment_id") references "comments" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "agent_activities" add constraint "agent_activities_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "agent_activities" add constraint "agent_activities_session_id_foreign" foreign key ("session_id") references "agent_sessions" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "agent_activities" add constraint "agent_activities_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "agent_activities" add constraint "agent_activities_author_id_foreign" foreign key ("author_id") references "users" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "users" add column "kind" text check ("kind" in (\'person\', \'agent\')) not null default \'person\', add column "avatar_url" text null, add column "agent_workspace_id" uuid null',
    );
    this.addSql(
      'alter table "users" add constraint "users_agent_workspace_id_foreign" foreign key ("agent_workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'create unique index "users_agent_workspace_lower_name_unique" on "users" ("agent_workspace_id", lower("name")) where "kind" = \'agent\'',
    );
    this.addSql('alter table "issues" add column "delegate_id" uuid null');
    this.addSql(
      'alter table "issues" add constraint "issues_delegate_id_foreign" foreign key ("delegate_id") references "users" ("id") on update cascade on delete set null',
    );
    this.addSql('create index "issues_delegate_id_index" on "issues" ("delegate_id")');
  }
}
