import { Migration } from "@mikro-orm/migrations";

/**
 * A GIN index on `issues.label_ids` (declared in `issue.entity.ts`): the list's `label` filter compares the
 * column with the ids its names resolve to (`label_ids @> ids`), so two labels are the intersection of
 * their posting lists instead of a probe of `issue_labels` for every issue of the workspace.
 */
export class Migration20261126010000_issue_label_ids_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "issues_label_ids_index" on "issues" using gin ("label_ids")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "issues_label_ids_index"`);
  }
}
