import { Migration } from "@mikro-orm/migrations";
import {
  ISSUES_PROJECT_COUNTS_UPDATE_TRIGGER,
  PROJECT_ISSUE_COUNTS_ON_ISSUE,
} from "../functions/project-issue-counts.js";
import {
  PROJECT_ISSUE_COUNTS_ON_ISSUE as COUNTS_ON_ISSUE_BEFORE,
  ISSUES_PROJECT_COUNTS_UPDATE_TRIGGER as COUNTS_UPDATE_TRIGGER_BEFORE,
} from "./Migration20261121074305_project_issue_counts.js";

/**
 * Archived issues (openapi.yaml, `archiveIssue`): `issues.archived_at`, set while an issue is archived.
 * Lists leave them out by an anti-join with the few archived issues, probing the small partial index
 * `issues_archived_index` (which also lists them for `archived=true`), so the covering indexes the lists
 * read stay index-only. Project counts leave archived issues out: their trigger function and its update
 * trigger, which now fires on `archived_at` too, are replaced (no issue is archived yet, so the counts stay
 * exact).
 */
export class Migration20261128180000_issue_archive extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "issues" add column "archived_at" timestamptz null');
    this.addSql(
      'create index "issues_archived_index" on "issues" ("workspace_id", "id") where "archived_at" is not null',
    );
    this.addSql(PROJECT_ISSUE_COUNTS_ON_ISSUE);
    this.addSql("drop trigger issues_project_counts_update on issues");
    this.addSql(ISSUES_PROJECT_COUNTS_UPDATE_TRIGGER);
  }

  override async down(): Promise<void> {
    this.addSql("drop trigger issues_project_counts_update on issues");
    this.addSql(COUNTS_ON_ISSUE_BEFORE.replace("create function", "create or replace function"));
    this.addSql(COUNTS_UPDATE_TRIGGER_BEFORE);
    this.addSql('drop index "issues_archived_index"');
    this.addSql('alter table "issues" drop column "archived_at"');
  }
}
