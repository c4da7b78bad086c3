import { Migration } from "@mikro-orm/migrations";

export class Migration20261121060327_drop_redundant_issue_project_index extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index "issues_project_id_index"');
  }
}
