import { Migration } from "@mikro-orm/migrations";
import { IMPORTING_SQL } from "../functions/import-mode.js";
import { ACTIVITY_EVENTS_NOTIFY_QUIET_IMPORTS } from "../functions/issue-notifications.js";
import { WEBHOOK_OUTBOX_FUNCTION_IMPORTED } from "../functions/webhook-outbox.js";

/**
 * Import mode (openapi.yaml, `importIssues`): issues and comments keep their identity in the tracker they
 * came from (`source_*`, unique per workspace, system and id for issues, per issue for comments), people an
 * import names who are not members yet are placeholder users, and change events say they were imported (a
 * default read from the transaction's import mode, `db/functions/import-mode.ts`); an import notifies nobody.
 */
export class Migration20261201130000_import_mode extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "users" add column "placeholder" boolean not null default false`);
    this.addSql(
      `alter table "issues" add column "source_system" text null, add column "source_id" text null, add column "source_url" text null`,
    );
    this.addSql(
      `create unique index "issues_source_unique" on "issues" ("workspace_id", "source_system", "source_id") where "source_system" is not null`,
    );
    this.addSql(
      `alter table "comments" add column "source_system" text null, add column "source_id" text null, add column "source_url" text null`,
    );
    this.addSql(
      `create unique index "comments_source_unique" on "comments" ("issue_id", "source_system", "source_id") where "source_system" is not null`,
    );
    this.addSql(
      `alter table "change_events" add column "imported" boolean not null default false, alter column "imported" set default (${IMPORTING_SQL})`,
    );
    this.addSql(ACTIVITY_EVENTS_NOTIFY_QUIET_IMPORTS);
    this.addSql(WEBHOOK_OUTBOX_FUNCTION_IMPORTED);
  }
}
