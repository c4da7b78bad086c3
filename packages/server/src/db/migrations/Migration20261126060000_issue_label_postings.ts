import { Migration } from "@mikro-orm/migrations";
import {
  FILL_LABEL_POSTINGS,
  ISSUES_LABEL_POSTINGS,
  ISSUES_LABEL_POSTINGS_TRIGGER,
} from "../functions/issue-label-postings.js";

/**
 * `issue_label_postings` (entity `IssueLabelPosting`): each label's issues in the default sort's order, so
 * a list filtered by labels in `updated` order stops at its page however the labels combine
 * (modules/issues/issue-label-walk.ts; bench/README.md, "Labels in update order").
 *
 * - A row per issue and label: the issue's workspace, team, number, update time and all its label ids,
 *   kept by the row trigger `issues_label_postings` in the same transaction as every write to the issue
 *   (src/db/functions/issue-label-postings.ts); a deleted issue's rows cascade.
 * - `issue_label_postings_order_index`: (label, updated_at, team, number), the default sort's key after the
 *   label, carrying the issue id, workspace and label ids, so the walk of one label checks the others, the
 *   workspace and the team in the index and reads no heap.
 * - The cost: an issue write that moves its update time rewrites its ~1.4 rows in both indexes.
 */
export class Migration20261126060000_issue_label_postings extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "issue_label_postings" (
        "issue_id" uuid not null, "label_id" uuid not null, "workspace_id" uuid not null, "team_id" uuid not null,
        "number" int not null, "updated_at" timestamptz not null, "label_ids" uuid[] not null,
        constraint "issue_label_postings_pkey" primary key ("issue_id", "label_id"))`);
    this.addSql(
      `alter table "issue_label_postings" add constraint "issue_label_postings_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade`,
    );
    this.addSql(ISSUES_LABEL_POSTINGS);
    this.addSql(ISSUES_LABEL_POSTINGS_TRIGGER);
    this.addSql(FILL_LABEL_POSTINGS);
    this.addSql(
      `create index "issue_label_postings_order_index" on "issue_label_postings" ("label_id", "updated_at", "team_id", "number") include ("issue_id", "workspace_id", "label_ids")`,
    );
  }

  override async down(): Promise<void> {
    this.addSql("drop trigger issues_label_postings on issues");
    this.addSql("drop function issues_label_postings()");
    this.addSql('drop table "issue_label_postings"');
  }
}
