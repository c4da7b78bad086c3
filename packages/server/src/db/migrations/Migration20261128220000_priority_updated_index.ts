import { Migration } from "@mikro-orm/migrations";

/**
 * `issues_workspace_priority_updated_index` (issue.entity.ts): a priority filter under the default sort reads
 * its page from the priority's newest issues instead of walking the workspace's.
 */
export class Migration20261128220000_priority_updated_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create index "issues_workspace_priority_updated_index" on "issues" ("workspace_id", (nullif("priority", 0)), "updated_at")',
    );
  }
}
