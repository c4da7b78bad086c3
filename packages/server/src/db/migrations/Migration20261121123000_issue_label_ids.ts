import { Migration } from "@mikro-orm/migrations";
import { ISSUE_LABEL_IDS } from "../functions/issue-label-ids.js";

/**
 * `issues.label_ids`: the issue's label ids, kept equal to its `issue_labels` rows by statement triggers
 * (insert, delete, update: every issue a statement touched is recomputed from the table, so any order and
 * any bulk write stays exact). A list page reads them from the rows it already reads instead of probing
 * `issue_labels` once per issue (~0.15 ms of a page's ~0.6 ms of PostgreSQL time); the names come from the
 * server's cache of the workspace's names. `issue_labels` stays the source of truth for filters and writes.
 */
export class Migration20261121123000_issue_label_ids extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "issues" add column "label_ids" uuid[] not null default '{}'`);
    this.addSql(`
      update issues i set label_ids = l.ids
        from (select issue_id, array_agg(label_id order by label_id) as ids from issue_labels group by issue_id) l
       where l.issue_id = i.id`);
    this.addSql(ISSUE_LABEL_IDS.refresh);
    this.addSql(ISSUE_LABEL_IDS.refreshMoved);
    this.addSql(ISSUE_LABEL_IDS.insertTrigger);
    this.addSql(ISSUE_LABEL_IDS.deleteTrigger);
    this.addSql(ISSUE_LABEL_IDS.updateTrigger);
  }
}
