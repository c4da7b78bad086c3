/**
 * `issue_label_postings`: a row per issue and label, with the issue's workspace, team, number, update time
 * and label ids, kept by a row trigger on `issues` in the same transaction as every write. Its index
 * `issue_label_postings_order_index` holds each label's issues in the default sort's order, so a list
 * filtered by labels walks one label's issues newest first and stops at the page
 * (modules/issues/list/label-walk.ts). Created by migration `issue_label_postings`, whose comment tells
 * the design.
 *
 * An issue's `label_ids` change (the mirror of `issue_labels` rewrites them, migration `issue_label_ids`):
 * its rows for labels it lost are deleted, the others written as the issue now is. Any other write moves
 * the issue's rows to its new update time, team and number, and costs nothing for an issue without labels.
 */
export const ISSUES_LABEL_POSTINGS = `
      create function issues_label_postings() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and new.label_ids is not distinct from old.label_ids then
          if cardinality(new.label_ids) > 0
             and (new.updated_at, new.team_id, new.number, new.workspace_id)
                 is distinct from (old.updated_at, old.team_id, old.number, old.workspace_id) then
            update issue_label_postings
               set workspace_id = new.workspace_id, team_id = new.team_id, number = new.number,
                   updated_at = new.updated_at
             where issue_id = new.id;
          end if;
          return null;
        end if;
        if tg_op = 'UPDATE' then
          delete from issue_label_postings
           where issue_id = new.id and label_id <> all(coalesce(new.label_ids, '{}'));
        end if;
        insert into issue_label_postings (issue_id, label_id, workspace_id, team_id, number, updated_at, label_ids)
        select new.id, l.id, new.workspace_id, new.team_id, new.number, new.updated_at, new.label_ids
          from unnest(new.label_ids) l(id)
        on conflict (issue_id, label_id) do update
          set workspace_id = excluded.workspace_id, team_id = excluded.team_id, number = excluded.number,
              updated_at = excluded.updated_at, label_ids = excluded.label_ids;
        return null;
      end $$`;

/** Writes the postings of every issue `issues i` holds, as it is (append a `where` on `i` to choose). */
export const FILL_LABEL_POSTINGS = `
      insert into issue_label_postings (issue_id, label_id, workspace_id, team_id, number, updated_at, label_ids)
      select i.id, l.id, i.workspace_id, i.team_id, i.number, i.updated_at, i.label_ids
        from issues i cross join unnest(i.label_ids) l(id)`;

export const ISSUES_LABEL_POSTINGS_TRIGGER = `
      create trigger issues_label_postings
        after insert or update of label_ids, updated_at, team_id, number, workspace_id on issues
        for each row execute function issues_label_postings()`;
