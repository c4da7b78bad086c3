import { Migration } from "@mikro-orm/migrations";

export class Migration20261121053755_cycle_counters extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "cycle_counters" ("team_id" uuid not null, "last_number" int not null, constraint "cycle_counters_pkey" primary key ("team_id"))',
    );
    this.addSql(
      'alter table "cycle_counters" add constraint "cycle_counters_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete cascade',
    );
  }
}
