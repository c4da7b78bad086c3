import { Migration } from "@mikro-orm/migrations";
import {
  ISSUES_TEAM_STATE_COUNTS_DELETE_TRIGGER,
  ISSUES_TEAM_STATE_COUNTS_UPDATE_TRIGGER,
  TEAM_STATE_COUNTS_ON_ISSUE,
} from "../functions/team-state-counts.js";

/**
 * `team_state_counts` (`db/functions/team-state-counts.ts`): each team's issues not archived per state, kept
 * by triggers, filled here from the issues there are (one pass, in this migration's transaction).
 */
export class Migration20261128230000_team_state_counts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "team_state_counts" ("team_id" uuid not null, "state_id" uuid not null, "n" int not null default 0, constraint "team_state_counts_pkey" primary key ("team_id", "state_id"))',
    );
    this.addSql(TEAM_STATE_COUNTS_ON_ISSUE);
    // Per row at first; per statement since migration `team_state_counts_per_statement`.
    this.addSql(`create trigger issues_team_state_counts_insert after insert on issues
        for each row when (new.archived_at is null)
        execute function team_state_counts_on_issue()`);
    this.addSql(ISSUES_TEAM_STATE_COUNTS_UPDATE_TRIGGER);
    this.addSql(ISSUES_TEAM_STATE_COUNTS_DELETE_TRIGGER);
    this.addSql(
      `insert into team_state_counts (team_id, state_id, n)
       select team_id, state_id, count(*)::int from issues where archived_at is null group by team_id, state_id`,
    );
  }
}
