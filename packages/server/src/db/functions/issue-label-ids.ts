/**
 * `issues.label_ids`: the issue's label ids, kept equal to its `issue_labels` rows by statement triggers
 * (insert, delete, update: every issue a statement touched is recomputed from the table, so any order and
 * any bulk write stays exact). A list page reads them from the rows it already reads; the names come from
 * the server's cache of the workspace's names (modules/shared/workspace-names.ts). `issue_labels` stays the
 * source of truth for filters and writes. Created by migration `issue_label_ids`.
 */

/** The statement trigger body: recomputes the rows `touched` selects. */
const refresh = (touched: string) => `
        update issues i
           set label_ids = coalesce((select array_agg(il.label_id order by il.label_id)
                                       from issue_labels il where il.issue_id = i.id), '{}')
         where i.id in (${touched});
        return null;`;

export const ISSUE_LABEL_IDS_REFRESH = `
      create function issue_label_ids_refresh() returns trigger language plpgsql as $$
      begin${refresh("select issue_id from touched_labels")}
      end $$`;

export const ISSUE_LABEL_IDS_REFRESH_MOVED = `
      create function issue_label_ids_refresh_moved() returns trigger language plpgsql as $$
      begin${refresh("select issue_id from touched_labels union select issue_id from touched_labels_before")}
      end $$`;

export const ISSUE_LABEL_IDS_INSERT_TRIGGER = `
      create trigger issue_labels_ids_insert after insert on issue_labels
        referencing new table as touched_labels
        for each statement execute function issue_label_ids_refresh()`;

export const ISSUE_LABEL_IDS_DELETE_TRIGGER = `
      create trigger issue_labels_ids_delete after delete on issue_labels
        referencing old table as touched_labels
        for each statement execute function issue_label_ids_refresh()`;

export const ISSUE_LABEL_IDS_UPDATE_TRIGGER = `
      create trigger issue_labels_ids_update after update on issue_labels
        referencing old table as touched_labels_before new table as touched_labels
        for each statement execute function issue_label_ids_refresh_moved()`;
