import { Migration } from "@mikro-orm/migrations";

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
    const refresh = (touched: string) => `
        update projects p
           set team_ids = coalesce((select array_agg(pt.team_id order by pt.team_id)
                                      from project_teams pt where pt.project_id = p.id), '{}')
         where p.id in (${touched});
        return null;`;
    this.addSql(`
      create function project_team_ids_refresh() returns trigger language plpgsql as $$
      begin${refresh("select project_id from touched_teams")}
      end $$`);
    this.addSql(`
      create function project_team_ids_refresh_moved() returns trigger language plpgsql as $$
      begin${refresh("select project_id from touched_teams union select project_id from touched_teams_before")}
      end $$`);
    this.addSql(`
      create trigger project_teams_ids_insert after insert on project_teams
        referencing new table as touched_teams
        for each statement execute function project_team_ids_refresh()`);
    this.addSql(`
      create trigger project_teams_ids_delete after delete on project_teams
        referencing old table as touched_teams
        for each statement execute function project_team_ids_refresh()`);
    this.addSql(`
      create trigger project_teams_ids_update after update on project_teams
        referencing old table as touched_teams_before new table as touched_teams
        for each statement execute function project_team_ids_refresh_moved()`);
  }
}
