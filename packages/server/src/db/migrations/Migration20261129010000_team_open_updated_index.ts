import { Migration } from "@mikro-orm/migrations";

/**
 * `issues_team_open_updated_index` (issue.entity.ts): one team's open issues newest first with the due date
 * in the key, so one team's `overdue` list reads that team's entries instead of the workspace's.
 */
export class Migration20261129010000_team_open_updated_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create index "issues_team_open_updated_index" on "issues" ("team_id", "updated_at", "due_date") include ("workspace_id", "number", "id") where "state_type" in (\'backlog\', \'unstarted\', \'started\')',
    );
  }
}
