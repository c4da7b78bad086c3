import { Migration } from "@mikro-orm/migrations";
import {
  ISSUES_SEARCH_BITS,
  ISSUES_SEARCH_BITS_TRIGGER,
  TRACKER_SEARCH_BITS,
} from "../functions/issue-search-bits.js";

/** `tracker_search_mask`, after `create`: replaced by `tracker_search_masks` (migration `issue_search_branch_masks`), whose down restores it. */
export const TRACKER_SEARCH_MASK = `function tracker_search_mask(query tsquery) returns bigint[]
      language sql immutable parallel safe strict as $$
        select case when t.tree ~ '[|]' or not (array_to_tsvector(t.lexemes) @@ t.tree::tsquery)
                    then array[0, 0, 0, 0]::bigint[]
                    else tracker_search_bits(t.lexemes) end
          from (select q.tree,
                       array(select replace(replace(m[1], '''''', ''''), '\\\\', '\\')
                               from regexp_matches(q.tree, '''(([^''\\\\]|''''|\\\\.)*)''', 'g') m) as lexemes
                  from (select querytree(query) as tree) q) t
      $$`;

/**
 * `issues.search_bits_0..3`: a 256-bit signature of the issue's full-text lexemes (each lexeme sets the bit
 * the first byte of its md5 names), kept by a trigger whenever title or description is written, and carried by the covering
 * index of the default sort. A search sorted by `updated` then reads that index in order and rechecks only
 * the rows whose signature holds every lexeme the query requires, so the most recent matches of common
 * words cost a few thousand index entries instead of a heap fetch per match (bench/README.md, "Full text").
 * md5, not hashtext: the bits must mean the same after a PostgreSQL upgrade.
 *
 * `tracker_search_mask(tsquery)` gives the bits a matching issue must have: those of the query's required
 * lexemes (`querytree`: negations dropped, phrases as AND), or none when the query has an `or`, or when the
 * lexemes read back from its text do not satisfy it (a safeguard: a wrong mask would hide matches).
 */
export class Migration20261121160000_issue_search_bits extends Migration {
  override async up(): Promise<void> {
    this.addSql(TRACKER_SEARCH_BITS);
    this.addSql(`create ${TRACKER_SEARCH_MASK}`);
    for (const n of [0, 1, 2, 3])
      this.addSql(`alter table "issues" add column "search_bits_${n}" bigint not null default 0`);
    this.addSql(ISSUES_SEARCH_BITS);
    this.addSql(ISSUES_SEARCH_BITS_TRIGGER);
    this.addSql(`
      update issues i set search_bits_0 = b[1], search_bits_1 = b[2], search_bits_2 = b[3], search_bits_3 = b[4]
        from (select id, tracker_search_bits(tsvector_to_array(search_vector)) as b from issues) x
       where x.id = i.id`);
    // The default sort's covering index, now ordered on its ties too and carrying the signature.
    this.addSql(`drop index "issues_workspace_updated_index"`);
    this.addSql(
      `create index "issues_workspace_updated_index" on "issues" ("workspace_id", "updated_at", "team_id", "number") include ("id", "state_id", "state_type", "assignee_id", "search_bits_0", "search_bits_1", "search_bits_2", "search_bits_3")`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "issues_workspace_updated_index"`);
    this.addSql(
      `create index "issues_workspace_updated_index" on "issues" ("workspace_id", "updated_at") include ("team_id", "number", "id", "state_id", "state_type", "assignee_id")`,
    );
    this.addSql("drop trigger issues_search_bits on issues");
    this.addSql("drop function issues_search_bits()");
    for (const n of [0, 1, 2, 3]) this.addSql(`alter table "issues" drop column "search_bits_${n}"`);
    this.addSql("drop function tracker_search_mask(tsquery)");
    this.addSql("drop function tracker_search_bits(text[])");
  }
}
