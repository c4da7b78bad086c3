import { Migration } from "@mikro-orm/migrations";
import {
  ISSUE_SORT_KEYS,
  ISSUES_SORT_KEYS_TRIGGER,
  stateTypeRank,
  USER_ASSIGNEE_SORT,
  USERS_ASSIGNEE_SORT_TRIGGER,
} from "../functions/issue-sort-keys.js";

/**
 * Sort keys for the issue list's `state` and `assignee` sorts, kept by triggers (see
 * `functions/issue-sort-keys.ts`), with an index each in the order of the sort, so those sorts read a page
 * in index order instead of sorting every visible issue.
 */
export class Migration20261125180000_issue_sort_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "issues" add column "state_position" int null, add column "assignee_sort" text null`,
    );
    this.addSql(
      `update "issues" i set "state_position" = s."position" from "workflow_states" s where s."id" = i."state_id"`,
    );
    this.addSql(
      `update "issues" i set "assignee_sort" = lower(u."name") from "users" u where u."id" = i."assignee_id"`,
    );
    this.addSql(ISSUE_SORT_KEYS);
    this.addSql(ISSUES_SORT_KEYS_TRIGGER);
    this.addSql(USER_ASSIGNEE_SORT);
    this.addSql(USERS_ASSIGNEE_SORT_TRIGGER);
    this.addSql(
      `create index "issues_workspace_state_sort_index" on "issues" ("workspace_id", (${stateTypeRank('"state_type"')}), "state_position", "team_id", "number")`,
    );
    this.addSql(
      `create index "issues_workspace_assignee_sort_index" on "issues" ("workspace_id", "assignee_sort", "team_id", "number")`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger "users_assignee_sort" on "users"`);
    this.addSql(`drop function user_assignee_sort()`);
    this.addSql(`drop trigger "issues_sort_keys" on "issues"`);
    this.addSql(`drop function issue_sort_keys()`);
    this.addSql(`alter table "issues" drop column "state_position", drop column "assignee_sort"`);
  }
}
