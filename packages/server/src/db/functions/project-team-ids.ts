/**
 * `projects.team_ids`: the project's team ids, kept equal to its `project_teams` rows by statement triggers
 * (insert, delete, update: every project a statement touched is recomputed from the table, so bulk writes
 * and cascades from a deleted team stay exact). A project list decides who sees a project from this array
 * and shows the page's teams from it. `project_teams` stays the source of truth for filters and writes.
 * Created by migration `project_team_ids`.
 */

/** The statement trigger body: recomputes the rows `touched` selects. */
const refresh = (touched: string) => `
        update projects p
           set team_ids = coalesce((select array_agg(pt.team_id order by pt.team_id)
                                      from project_teams pt where pt.project_id = p.id), '{}')
         where p.id in (${touched});
        return null;`;

export const PROJECT_TEAM_IDS_REFRESH = `
      create function project_team_ids_refresh() returns trigger language plpgsql as $$
      begin${refresh("select project_id from touched_teams")}
      end $$`;

export const PROJECT_TEAM_IDS_REFRESH_MOVED = `
      create function project_team_ids_refresh_moved() returns trigger language plpgsql as $$
      begin${refresh("select project_id from touched_teams union select project_id from touched_teams_before")}
      end $$`;

export const PROJECT_TEAM_IDS_INSERT_TRIGGER = `
      create trigger project_teams_ids_insert after insert on project_teams
        referencing new table as touched_teams
        for each statement execute function project_team_ids_refresh()`;

export const PROJECT_TEAM_IDS_DELETE_TRIGGER = `
      create trigger project_teams_ids_delete after delete on project_teams
        referencing old table as touched_teams
        for each statement execute function project_team_ids_refresh()`;

export const PROJECT_TEAM_IDS_UPDATE_TRIGGER = `
      create trigger project_teams_ids_update after update on project_teams
        referencing old table as touched_teams_before new table as touched_teams
        for each statement execute function project_team_ids_refresh_moved()`;
