import { Migration } from "@mikro-orm/migrations";

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
    const refresh = (touched: string) => `
        update issues i
           set label_ids = coalesce((select array_agg(il.label_id order by il.label_id)
                                       from issue_labels il where il.issue_id = i.id), '{}')
         where i.id in (${touched});
        return null;`;
    this.addSql(`
      create function issue_label_ids_refresh() returns trigger language plpgsql as $$
      begin${refresh("select issue_id from touched_labels")}
      end $$`);
    this.addSql(`
      create function issue_label_ids_refresh_moved() returns trigger language plpgsql as $$
      begin${refresh("select issue_id from touched_labels union select issue_id from touched_labels_before")}
      end $$`);
    this.addSql(`
      create trigger issue_labels_ids_insert after insert on issue_labels
        referencing new table as touched_labels
        for each statement execute function issue_label_ids_refresh()`);
    this.addSql(`
      create trigger issue_labels_ids_delete after delete on issue_labels
        referencing old table as touched_labels
        for each statement execute function issue_label_ids_refresh()`);
    this.addSql(`
      create trigger issue_labels_ids_update after update on issue_labels
        referencing old table as touched_labels_before new table as touched_labels
        for each statement execute function issue_label_ids_refresh_moved()`);
  }
}
