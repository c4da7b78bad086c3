import { Migration } from "@mikro-orm/migrations";

/**
 * Indexes for the issue list's time windows (`createdAfter`, `createdBefore`, `completedAfter`,
 * `completedBefore`): the `created` sort index becomes (workspace, created, team, number) carrying `id` and
 * `updated_at`, and finished issues get one by completion time (declared in `issue.entity.ts`).
 */
export class Migration20261125160000_issue_time_window_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "issues_workspace_created_index" on "issues" ("workspace_id", "created_at", "team_id", "number") include ("id", "updated_at")`,
    );
    this.addSql(`drop index "issues_workspace_id_created_at_index"`);
    this.addSql(
      `create index "issues_workspace_completed_index" on "issues" ("workspace_id", "completed_at") include ("team_id", "number", "id", "updated_at") where "completed_at" is not null`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "issues_workspace_completed_index"`);
    this.addSql(
      `create index "issues_workspace_id_created_at_index" on "issues" ("workspace_id", "created_at")`,
    );
    this.addSql(`drop index "issues_workspace_created_index"`);
  }
}
