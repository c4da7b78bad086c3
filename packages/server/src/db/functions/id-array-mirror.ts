/**
 * An id array kept on a row equal to the ids of its link table's rows (`issues.label_ids` from
 * `issue_labels`, `projects.team_ids` from `project_teams`), so a list reads them from the rows it already
 * reads. Statement triggers on the link table (insert, delete, update) recompute the array of every row a
 * statement touched from the table, sorted, so any order, bulk write or cascade stays exact; the link
 * table stays the source of truth for filters and writes.
 */
export interface IdArrayMirror {
  /** The table holding the array, and its alias in the trigger bodies. */
  table: string;
  alias: string;
  /** The array column. */
  column: string;
  /** The link table and its alias, its column naming the `table` row, and its column of ids. */
  links: string;
  linkAlias: string;
  owner: string;
  id: string;
  /** Names: of the functions (`<fn>_refresh`, `<fn>_refresh_moved`), of the triggers (`<trigger>_insert`, ...), of the transition table. */
  fn: string;
  trigger: string;
  touched: string;
}

/** The functions and triggers of an {@link IdArrayMirror}, in the order they are created. */
export function idArrayMirror(m: IdArrayMirror) {
  const refresh = (touched: string) => `
        update ${m.table} ${m.alias}
           set ${m.column} = coalesce((select array_agg(${m.linkAlias}.${m.id} order by ${m.linkAlias}.${m.id})
${" ".repeat(30 + m.column.length)}from ${m.links} ${m.linkAlias} where ${m.linkAlias}.${m.owner} = ${m.alias}.id), '{}')
         where ${m.alias}.id in (${touched});
        return null;`;
  const touchedOwners = `select ${m.owner} from ${m.touched}`;
  return {
    refresh: `
      create function ${m.fn}_refresh() returns trigger language plpgsql as $$
      begin${refresh(touchedOwners)}
      end $$`,
    refreshMoved: `
      create function ${m.fn}_refresh_moved() returns trigger language plpgsql as $$
      begin${refresh(`${touchedOwners} union select ${m.owner} from ${m.touched}_before`)}
      end $$`,
    insertTrigger: `
      create trigger ${m.trigger}_insert after insert on ${m.links}
        referencing new table as ${m.touched}
        for each statement execute function ${m.fn}_refresh()`,
    deleteTrigger: `
      create trigger ${m.trigger}_delete after delete on ${m.links}
        referencing old table as ${m.touched}
        for each statement execute function ${m.fn}_refresh()`,
    updateTrigger: `
      create trigger ${m.trigger}_update after update on ${m.links}
        referencing old table as ${m.touched}_before new table as ${m.touched}
        for each statement execute function ${m.fn}_refresh_moved()`,
  } as const;
}
