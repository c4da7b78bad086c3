import { Migration } from "@mikro-orm/migrations";
import {
  ISSUES_PROJECT_COUNTS_DELETE_TRIGGER,
  ISSUES_PROJECT_COUNTS_INSERT_TRIGGER,
  PROJECT_ISSUE_COUNTS_ON_PROJECT,
  PROJECTS_ISSUE_COUNTS_TRIGGER,
} from "../functions/project-issue-counts.js";

/** `project_issue_counts_on_issue` as this migration made it (replaced by migration `issue_archive`). */
export const PROJECT_ISSUE_COUNTS_ON_ISSUE = `
      create function project_issue_counts_on_issue() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' and old.project_id is not null then
          update project_issue_counts
             set done = done - (old.state_type = 'completed')::int,
                 total = total - (old.state_type <> 'canceled')::int,
                 issue_count = issue_count - 1
           where project_id = old.project_id;
        end if;
        if tg_op <> 'DELETE' and new.project_id is not null then
          update project_issue_counts
             set done = done + (new.state_type = 'completed')::int,
                 total = total + (new.state_type <> 'canceled')::int,
                 issue_count = issue_count + 1
           where project_id = new.project_id;
        end if;
        return null;
      end $$`;

/** `issues_project_counts_update` as this migration made it (replaced by migration `issue_archive`). */
export const ISSUES_PROJECT_COUNTS_UPDATE_TRIGGER = `
      create trigger issues_project_counts_update after update of project_id, state_type on issues
        for each row when (old.project_id is distinct from new.project_id or old.state_type is distinct from new.state_type)
        execute function project_issue_counts_on_issue()`;

/**
 * Per-project issue counts kept by the database itself, so project and initiative lists read one row per
 * project instead of counting its issues on every request. Triggers keep them exact whatever writes the
 * issues (creates, updates, moves, bulk changes, cascades): a row per project from its insert, and row
 * triggers on issues that fire only when an issue enters, leaves or changes state type within a project.
 */
export class Migration20261121074305_project_issue_counts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "project_issue_counts" ("project_id" uuid not null, "done" int not null default 0, "total" int not null default 0, "issue_count" int not null default 0, constraint "project_issue_counts_pkey" primary key ("project_id"))',
    );
    this.addSql(
      'alter table "project_issue_counts" add constraint "project_issue_counts_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade',
    );
    this.addSql(PROJECT_ISSUE_COUNTS_ON_PROJECT);
    this.addSql(PROJECTS_ISSUE_COUNTS_TRIGGER);
    // done: completed; total: not canceled; issue_count: all (the progress of openapi.yaml, `listProjects`).
    this.addSql(PROJECT_ISSUE_COUNTS_ON_ISSUE);
    this.addSql(ISSUES_PROJECT_COUNTS_INSERT_TRIGGER);
    this.addSql(ISSUES_PROJECT_COUNTS_UPDATE_TRIGGER);
    this.addSql(ISSUES_PROJECT_COUNTS_DELETE_TRIGGER);
    this.addSql(`
      insert into project_issue_counts (project_id, done, total, issue_count)
      select p.id,
             count(i.id) filter (where i.state_type = 'completed'),
             count(i.id) filter (where i.state_type <> 'canceled'),
             count(i.id)
        from projects p left join issues i on i.project_id = p.id
       group by p.id`);
  }
}
