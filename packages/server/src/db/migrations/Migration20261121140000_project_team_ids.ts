import { Migration } from "@mikro-orm/migrations";
import { PROJECT_TEAM_IDS } from "../functions/project-team-ids.js";

/**
 * `projects.team_ids`: the project's team ids, kept equal to its `project_teams` rows by statement triggers
 * (insert, delete, update: every project a statement touched is recomputed from the table, so bulk writes
 * and cascades from a deleted team stay exact). A project list decides who sees a project from this array
 * (array operators on the row it already reads, instead of a hashed subplan over every `project_teams`
 * row: ~0.25 ms of a 0.8 ms page) and shows the page's teams from it, with names from the server's cache.
 * `project_teams` stays the source of truth for filters and writes.
 */
export class Migration20261121140000_project_team_ids extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "projects" add column "team_ids" uuid[] not null default '{}'`);
    this.addSql(`
      update projects p set team_ids = t.ids
        from (select project_id, array_agg(team_id order by team_id) as ids from project_teams group by project_id) t
       where t.project_id = p.id`);
    this.addSql(PROJECT_TEAM_IDS.refresh);
    this.addSql(PROJECT_TEAM_IDS.refreshMoved);
    this.addSql(PROJECT_TEAM_IDS.insertTrigger);
    this.addSql(PROJECT_TEAM_IDS.deleteTrigger);
    this.addSql(PROJECT_TEAM_IDS.updateTrigger);
  }
}
