import { Migration } from "@mikro-orm/migrations";

export class Migration20261121064542_list_query_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create index "projects_workspace_id_updated_at_index" on "projects" ("workspace_id", "updated_at")',
    );
    this.addSql(
      'create index "projects_workspace_id_target_date_index" on "projects" ("workspace_id", "target_date")',
    );
    this.addSql('drop index "issues_search_index"');
    this.addSql('drop index "issues_workspace_id_updated_at_index"');
    this.addSql(
      "alter table \"issues\" add column \"search_vector\" tsvector generated always as (setweight(to_tsvector('english'::regconfig, title), 'A'::\"char\") || setweight(to_tsvector('english'::regconfig, COALESCE(description, ''::text)), 'B'::\"char\")) stored null",
    );
    this.addSql(
      'create index "issues_workspace_updated_index" on "issues" ("workspace_id", "updated_at") include ("team_id", "number", "id", "state_id", "state_type", "assignee_id")',
    );
    this.addSql('create index "issues_search_vector_index" on "issues" using gin ("search_vector")');
    this.addSql(
      'create index "issues_open_updated_index" on "issues" ("workspace_id", "updated_at", "due_date") include ("team_id", "number", "id") where "state_type" in (\'backlog\', \'unstarted\', \'started\')',
    );
    this.addSql('drop index "issue_relations_related_issue_id_index"');
    this.addSql(
      'create index "issue_relations_related_issue_type_index" on "issue_relations" ("related_issue_id", "type") include ("issue_id")',
    );
  }
}
