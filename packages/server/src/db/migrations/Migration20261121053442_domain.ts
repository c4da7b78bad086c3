import { Migration } from "@mikro-orm/migrations";

export class Migration20261121053442_domain extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "view_defaults" ("id" uuid not null, "workspace_id" uuid not null, "user_id" uuid null, "view_key" text not null, "filters" jsonb not null, "sort" text null, "display" text null, "grouping" text null, "hidden" jsonb not null, "updated_at" timestamptz not null, constraint "view_defaults_pkey" primary key ("id"))',
    );
    this.addSql(
      'create unique index "view_defaults_scope_unique" on "view_defaults" ("workspace_id", "view_key", "user_id") nulls not distinct',
    );
    this.addSql(
      'create table "workflow_rules" ("id" uuid not null, "team_id" uuid not null, "trigger" text check ("trigger" in (\'pr_opened\', \'pr_review_requested\', \'pr_merged\')) not null, "project_id" uuid null, "target_state_id" uuid not null, "created_at" timestamptz not null, constraint "workflow_rules_pkey" primary key ("id"))',
    );
    this.addSql(
      'create unique index "workflow_rules_team_trigger_project_unique" on "workflow_rules" ("team_id", "trigger", "project_id") nulls not distinct',
    );
    this.addSql(
      'create table "cycles" ("id" uuid not null, "team_id" uuid not null, "number" int not null, "name" text null, "starts_at" timestamptz not null, "ends_at" timestamptz not null, "created_at" timestamptz not null, constraint "cycles_pkey" primary key ("id"))',
    );
    this.addSql(
      'alter table "cycles" add constraint "cycles_team_id_number_unique" unique ("team_id", "number")',
    );
    this.addSql(
      'create table "saved_views" ("id" uuid not null, "workspace_id" uuid not null, "owner_id" uuid not null, "name" text not null, "kind" text not null, "team_id" uuid null, "display" text not null, "grouping" text not null, "filters" jsonb not null, "sort" text null, "favorite" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "saved_views_pkey" primary key ("id"))',
    );
    this.addSql(
      'create index "saved_views_workspace_id_owner_id_index" on "saved_views" ("workspace_id", "owner_id")',
    );
    this.addSql(
      'create table "labels" ("id" uuid not null, "workspace_id" uuid not null, "name" text not null, "color" text not null, "description" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "labels_pkey" primary key ("id"))',
    );
    this.addSql(
      'create unique index "labels_workspace_lower_name_unique" on "labels" ("workspace_id", lower("name"))',
    );
    this.addSql(
      'create table "initiatives" ("id" uuid not null, "workspace_id" uuid not null, "name" text not null, "description" text null, "status" text check ("status" in (\'planned\', \'active\', \'completed\', \'canceled\')) not null default \'planned\', "lead_id" uuid null, "start_date" date null, "target_date" date null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "initiatives_pkey" primary key ("id"))',
    );
    this.addSql(
      'create unique index "initiatives_workspace_lower_name_unique" on "initiatives" ("workspace_id", lower("name"))',
    );
    this.addSql(
      'create table "projects" ("id" uuid not null, "workspace_id" uuid not null, "name" text not null, "description" text null, "status" text check ("status" in (\'backlog\', \'planned\', \'started\', \'paused\', \'completed\', \'canceled\')) not null default \'backlog\', "initiative_id" uuid null, "lead_id" uuid null, "start_date" date null, "target_date" date null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "projects_pkey" primary key ("id"))',
    );
    this.addSql('create index "projects_initiative_id_index" on "projects" ("initiative_id")');
    this.addSql(
      'create unique index "projects_workspace_lower_name_unique" on "projects" ("workspace_id", lower("name"))',
    );
    this.addSql(
      'create table "status_updates" ("id" uuid not null, "workspace_id" uuid not null, "team_id" uuid null, "project_id" uuid null, "initiative_id" uuid null, "title" text not null, "content" text not null, "health" text check ("health" in (\'on_track\', \'at_risk\', \'off_track\')) not null, "creator_id" uuid null, "created_at" timestamptz not null, constraint "status_updates_pkey" primary key ("id"), constraint status_updates_one_subject_check check (num_nonnulls(team_id, project_id, initiative_id) = 1))',
    );
    this.addSql(
      'create index "status_updates_team_id_created_at_index" on "status_updates" ("team_id", "created_at")',
    );
    this.addSql(
      'create index "status_updates_project_id_created_at_index" on "status_updates" ("project_id", "created_at")',
    );
    this.addSql(
      'create index "status_updates_initiative_id_created_at_index" on "status_updates" ("initiative_id", "created_at")',
    );
    this.addSql(
      'create table "project_teams" ("project_id" uuid not null, "team_id" uuid not null, constraint "project_teams_pkey" primary key ("project_id", "team_id"))',
    );
    this.addSql('create index "project_teams_team_id_index" on "project_teams" ("team_id")');
    this.addSql(
      'create table "project_members" ("project_id" uuid not null, "user_id" uuid not null, constraint "project_members_pkey" primary key ("project_id", "user_id"))',
    );
    this.addSql(
      'create table "issues" ("id" uuid not null, "workspace_id" uuid not null, "team_id" uuid not null, "number" int not null, "title" text not null, "description" text null, "priority" smallint not null default 0, "estimate" int null, "due_date" date null, "state_id" uuid not null, "state_type" text check ("state_type" in (\'backlog\', \'unstarted\', \'started\', \'completed\', \'canceled\')) not null, "assignee_id" uuid null, "creator_id" uuid null, "project_id" uuid null, "cycle_id" uuid null, "parent_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "completed_at" timestamptz null, constraint "issues_pkey" primary key ("id"))',
    );
    this.addSql(
      'create index "issues_workspace_id_updated_at_index" on "issues" ("workspace_id", "updated_at")',
    );
    this.addSql('create index "issues_team_id_updated_at_index" on "issues" ("team_id", "updated_at")');
    this.addSql('create index "issues_assignee_id_index" on "issues" ("assignee_id")');
    this.addSql('create index "issues_creator_id_index" on "issues" ("creator_id")');
    this.addSql('create index "issues_project_id_index" on "issues" ("project_id")');
    this.addSql('create index "issues_cycle_id_index" on "issues" ("cycle_id")');
    this.addSql('create index "issues_state_id_index" on "issues" ("state_id")');
    this.addSql('create index "issues_parent_id_index" on "issues" ("parent_id")');
    this.addSql(
      "create index \"issues_search_index\" on \"issues\" using gin ((setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'B')))",
    );
    this.addSql(
      'alter table "issues" add constraint "issues_team_id_number_unique" unique ("team_id", "number")',
    );
    this.addSql(
      'create table "status_update_issues" ("update_id" uuid not null, "issue_id" uuid not null, constraint "status_update_issues_pkey" primary key ("update_id", "issue_id"))',
    );
    this.addSql(
      'create table "issue_relations" ("id" uuid not null, "workspace_id" uuid not null, "type" text check ("type" in (\'blocks\', \'related\', \'duplicate\')) not null, "issue_id" uuid not null, "related_issue_id" uuid not null, "creator_id" uuid null, "created_at" timestamptz not null, constraint "issue_relations_pkey" primary key ("id"))',
    );
    this.addSql(
      'create index "issue_relations_related_issue_id_index" on "issue_relations" ("related_issue_id")',
    );
    this.addSql(
      'alter table "issue_relations" add constraint "issue_relations_issue_id_related_issue_id_type_unique" unique ("issue_id", "related_issue_id", "type")',
    );
    this.addSql(
      'create table "issue_redirects" ("id" uuid not null, "workspace_id" uuid not null, "team_key" text not null, "number" int not null, "issue_id" uuid not null, "created_at" timestamptz not null, constraint "issue_redirects_pkey" primary key ("id"))',
    );
    this.addSql(
      'alter table "issue_redirects" add constraint "issue_redirects_workspace_id_team_key_number_unique" unique ("workspace_id", "team_key", "number")',
    );
    this.addSql(
      'create table "issue_links" ("id" uuid not null, "issue_id" uuid not null, "url" text not null, "title" text null, "created_at" timestamptz not null, constraint "issue_links_pkey" primary key ("id"))',
    );
    this.addSql('create index "issue_links_issue_id_index" on "issue_links" ("issue_id")');
    this.addSql(
      'create table "issue_labels" ("issue_id" uuid not null, "label_id" uuid not null, constraint "issue_labels_pkey" primary key ("issue_id", "label_id"))',
    );
    this.addSql('create index "issue_labels_label_id_index" on "issue_labels" ("label_id")');
    this.addSql(
      'create table "comments" ("id" uuid not null, "issue_id" uuid not null, "author_id" uuid null, "body" text not null, "edited" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "comments_pkey" primary key ("id"))',
    );
    this.addSql('create index "comments_issue_id_created_at_index" on "comments" ("issue_id", "created_at")');
    this.addSql(
      'create table "documents" ("id" uuid not null, "workspace_id" uuid not null, "team_id" uuid not null, "title" text not null, "content" text null, "creator_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "documents_pkey" primary key ("id"))',
    );
    this.addSql(
      'create index "documents_workspace_id_updated_at_index" on "documents" ("workspace_id", "updated_at")',
    );
    this.addSql('create index "documents_team_id_index" on "documents" ("team_id")');
    this.addSql(
      "create index \"documents_search_index\" on \"documents\" using gin ((setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', coalesce(content, '')), 'B')))",
    );
    this.addSql(
      'create table "document_issues" ("document_id" uuid not null, "issue_id" uuid not null, constraint "document_issues_pkey" primary key ("document_id", "issue_id"))',
    );
    this.addSql('create index "document_issues_issue_id_index" on "document_issues" ("issue_id")');
    this.addSql(
      'create table "change_events" ("id" bigserial primary key, "workspace_id" uuid not null, "entity" text not null, "action" text not null, "entity_id" text not null, "identifier" text null, "team_key" text null, "team_id" uuid null, "created_at" timestamptz not null)',
    );
    this.addSql(
      'create index "change_events_workspace_id_id_index" on "change_events" ("workspace_id", "id")',
    );
    this.addSql('create index "change_events_created_at_index" on "change_events" ("created_at")');
    this.addSql(
      'create table "activity_events" ("id" uuid not null, "workspace_id" uuid not null, "issue_id" uuid null, "actor_id" uuid null, "type" text not null, "payload" jsonb not null, "created_at" timestamptz not null, constraint "activity_events_pkey" primary key ("id"))',
    );
    this.addSql(
      'create index "activity_events_issue_id_created_at_index" on "activity_events" ("issue_id", "created_at")',
    );
    this.addSql(
      'create index "activity_events_workspace_id_created_at_index" on "activity_events" ("workspace_id", "created_at")',
    );
    this.addSql(
      'alter table "view_defaults" add constraint "view_defaults_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "view_defaults" add constraint "view_defaults_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "workflow_rules" add constraint "workflow_rules_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "workflow_rules" add constraint "workflow_rules_target_state_id_foreign" foreign key ("target_state_id") references "workflow_states" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "cycles" add constraint "cycles_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "saved_views" add constraint "saved_views_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "saved_views" add constraint "saved_views_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "saved_views" add constraint "saved_views_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "labels" add constraint "labels_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "initiatives" add constraint "initiatives_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "initiatives" add constraint "initiatives_lead_id_foreign" foreign key ("lead_id") references "users" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "projects" add constraint "projects_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "projects" add constraint "projects_initiative_id_foreign" foreign key ("initiative_id") references "initiatives" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "projects" add constraint "projects_lead_id_foreign" foreign key ("lead_id") references "users" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "status_updates" add constraint "status_updates_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "status_updates" add constraint "status_updates_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "status_updates" add constraint "status_updates_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "status_updates" add constraint "status_updates_initiative_id_foreign" foreign key ("initiative_id") references "initiatives" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "status_updates" add constraint "status_updates_creator_id_foreign" foreign key ("creator_id") references "users" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "project_teams" add constraint "project_teams_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "project_teams" add constraint "project_teams_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "project_members" add constraint "project_members_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "project_members" add constraint "project_members_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "issues" add constraint "issues_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "issues" add constraint "issues_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "issues" add constraint "issues_state_id_foreign" foreign key ("state_id") references "workflow_states" ("id") on update cascade',
    );
    this.addSql(
      'alter table "issues" add constraint "issues_assignee_id_foreign" foreign key ("assignee_id") references "users" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "issues" add constraint "issues_creator_id_foreign" foreign key ("creator_id") references "users" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "issues" add constraint "issues_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "issues" add constraint "issues_cycle_id_foreign" foreign key ("cycle_id") references "cycles" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "issues" add constraint "issues_parent_id_foreign" foreign key ("parent_id") references "issues" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "status_update_issues" add constraint "status_update_issues_update_id_foreign" foreign key ("update_id") references "status_updates" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "status_update_issues" add constraint "status_update_issues_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "issue_relations" add constraint "issue_relations_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "issue_relations" add constraint "issue_relations_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "issue_relations" add constraint "issue_relations_related_issue_id_foreign" foreign key ("related_issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "issue_relations" add constraint "issue_relations_creator_id_foreign" foreign key ("creator_id") references "users" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "issue_redirects" add constraint "issue_redirects_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "issue_redirects" add constraint "issue_redirects_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "issue_links" add constraint "issue_links_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "issue_labels" add constraint "issue_labels_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "issue_labels" add constraint "issue_labels_label_id_foreign" foreign key ("label_id") references "labels" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "comments" add constraint "comments_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "comments" add constraint "comments_author_id_foreign" foreign key ("author_id") references "users" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "documents" add constraint "documents_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "documents" add constraint "documents_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "documents" add constraint "documents_creator_id_foreign" foreign key ("creator_id") references "users" ("id") on update cascade on delete set null',
    );
    this.addSql(
      'alter table "document_issues" add constraint "document_issues_document_id_foreign" foreign key ("document_id") references "documents" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "document_issues" add constraint "document_issues_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "change_events" add constraint "change_events_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "activity_events" add constraint "activity_events_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "activity_events" add constraint "activity_events_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "activity_events" add constraint "activity_events_actor_id_foreign" foreign key ("actor_id") references "users" ("id") on update cascade on delete set null',
    );
  }
}
