import { Migration } from "@mikro-orm/migrations";
import {
  ISSUES_TEAM_STATE_COUNTS_INSERT_TRIGGER,
  TEAM_STATE_COUNTS_ON_INSERTED_ISSUES,
} from "../functions/team-state-counts.js";

/**
 * `team_state_counts` counts inserted issues once per statement instead of once per row
 * (`db/functions/team-state-counts.ts`): a batch create bumps each (team, state) row once.
 */
export class Migration20261129000000_team_state_counts_per_statement extends Migration {
  override async up(): Promise<void> {
    this.addSql(TEAM_STATE_COUNTS_ON_INSERTED_ISSUES);
    this.addSql("drop trigger issues_team_state_counts_insert on issues");
    this.addSql(ISSUES_TEAM_STATE_COUNTS_INSERT_TRIGGER);
  }
}
