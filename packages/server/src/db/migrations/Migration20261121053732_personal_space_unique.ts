import { Migration } from "@mikro-orm/migrations";

export class Migration20261121053732_personal_space_unique extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create unique index "teams_workspace_personal_owner_unique" on "teams" ("workspace_id", "owner_id") where "personal"',
    );
  }
}
