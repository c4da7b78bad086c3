/**
 * `project_issue_counts`: per project, `done` (completed issues), `total` (issues not canceled) and
 * `issue_count` (all), the progress the contract defines (openapi.yaml, `listProjects`: "progress"), kept
 * exact by the database whatever writes the issues (creates, updates, moves, bulk changes, cascades): a row
 * per project from its insert, and row triggers on issues that fire only when an issue enters, leaves or
 * changes state type within a project. An archived issue counts nowhere (openapi.yaml, `archiveIssue`):
 * archiving leaves its project's counts, unarchiving enters them again. Created by migration
 * `project_issue_counts`; as below since `issue_archive`.
 */

export const PROJECT_ISSUE_COUNTS_ON_PROJECT = `
      create function project_issue_counts_on_project() returns trigger language plpgsql as $$
      begin
        insert into project_issue_counts (project_id) select id from new_projects on conflict do nothing;
        return null;
      end $$`;

export const PROJECTS_ISSUE_COUNTS_TRIGGER = `
      create trigger projects_issue_counts after insert on projects
        referencing new table as new_projects
        for each statement execute function project_issue_counts_on_project()`;

export const PROJECT_ISSUE_COUNTS_ON_ISSUE = `
      create or replace function project_issue_counts_on_issue() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' and old.project_id is not null and old.archived_at is null then
          update project_issue_counts
             set done = done - (old.state_type = 'completed')::int,
                 total = total - (old.state_type <> 'canceled')::int,
                 issue_count = issue_count - 1
           where project_id = old.project_id;
        end if;
        if tg_op <> 'DELETE' and new.project_id is not null and new.archived_at is null then
          update project_issue_counts
             set done = done + (new.state_type = 'completed')::int,
                 total = total + (new.state_type <> 'canceled')::int,
                 issue_count = issue_count + 1
           where project_id = new.project_id;
        end if;
        return null;
      end $$`;

export const ISSUES_PROJECT_COUNTS_INSERT_TRIGGER = `
      create trigger issues_project_counts_insert after insert on issues
        for each row when (new.project_id is not null)
        execute function project_issue_counts_on_issue()`;

export const ISSUES_PROJECT_COUNTS_UPDATE_TRIGGER = `
      create trigger issues_project_counts_update after update of project_id, state_type, archived_at on issues
        for each row when (old.project_id is distinct from new.project_id or old.state_type is distinct from new.state_type
                           or (old.archived_at is null) <> (new.archived_at is null))
        execute function project_issue_counts_on_issue()`;

export const ISSUES_PROJECT_COUNTS_DELETE_TRIGGER = `
      create trigger issues_project_counts_delete after delete on issues
        for each row when (old.project_id is not null)
        execute function project_issue_counts_on_issue()`;
