import { Migration } from "@mikro-orm/migrations";

/**
 * `GET /issues/counts` (modules/issues/list/counts.query.ts): a team's issues (or the workspace's) counted per
 * state, state type, assignee, priority, project or cycle from one covering index, an index-only scan,
 * instead of a heap fetch per issue counted (bench/README.md, "Counts").
 */
export class Migration20261128190000_issue_counts_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create index "issues_team_counts_index" on "issues" ("workspace_id", "team_id", "state_id") include ("state_type", "assignee_id", "priority", "project_id", "cycle_id") where "archived_at" is null',
    );
  }
}
