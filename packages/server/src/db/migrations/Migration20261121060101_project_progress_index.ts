import { Migration } from "@mikro-orm/migrations";

export class Migration20261121060101_project_progress_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create index "issues_project_progress_index" on "issues" ("project_id") include ("state_type", "updated_at")',
    );
  }
}
