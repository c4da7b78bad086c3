import { Migration } from "@mikro-orm/migrations";

export class Migration20261121054917_issue_sort_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create index "issues_workspace_id_created_at_index" on "issues" ("workspace_id", "created_at")',
    );
    this.addSql(
      'create index "issues_workspace_id_due_date_team_id_number_index" on "issues" ("workspace_id", "due_date", "team_id", "number")',
    );
    this.addSql(
      'create index "issues_workspace_id_estimate_team_id_number_index" on "issues" ("workspace_id", "estimate", "team_id", "number")',
    );
    this.addSql(
      'create index "issues_workspace_priority_sort_index" on "issues" ("workspace_id", (nullif("priority", 0)), "team_id", "number")',
    );
    this.addSql(
      'create index "issues_workspace_title_sort_index" on "issues" ("workspace_id", lower("title"), "team_id", "number")',
    );
  }
}
