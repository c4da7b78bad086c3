import { Migration } from "@mikro-orm/migrations";
import { TRACKER_SEARCH_MASK } from "./Migration20261121160000_issue_search_bits.js";

/** `tracker_search_masks`, after `create`: replaced in place by migration `issue_search_masks_simple`, whose down restores it. */
export const TRACKER_SEARCH_MASKS = `function tracker_search_masks(query tsquery) returns bigint[]
      language plpgsql immutable parallel safe strict as $$
      declare
        tree text := querytree(query);
        branch text;
        lexemes text[];
        masks bigint[] := '{}';
      begin
        if tree in ('', 'T') then
          return array_fill(0::bigint, array[12]);
        end if;
        foreach branch in array string_to_array(tree, ' | ') loop
          lexemes := array(select replace(replace(m[1], '''''', ''''), '\\\\', '\\')
                             from regexp_matches(branch, '''(([^''\\\\]|''''|\\\\.)*)''', 'g') m);
          if cardinality(lexemes) = 0
             or not (array_to_tsvector(lexemes) @@ regexp_replace(branch, '<(-|[0-9]+)>', '&', 'g')::tsquery) then
            return array_fill(0::bigint, array[12]);
          end if;
          masks := masks || tracker_search_bits(lexemes);
        end loop;
        if cardinality(masks) = 4 then
          return masks || masks || masks;
        elsif cardinality(masks) = 8 then
          return array[masks[1] & masks[5], masks[2] & masks[6], masks[3] & masks[7], masks[4] & masks[8]] || masks;
        end if;
        return array_fill(0::bigint, array[12]);
      exception when others then
        return array_fill(0::bigint, array[12]);
      end $$`;

/**
 * `tracker_search_masks(tsquery)`: the search bits (`tracker_search_bits`, migration `issue_search_bits`) a
 * matching issue must have, so that searches with `or` and with quoted phrases also skip non-matches by their
 * bits instead of rechecking every row's stored vector.
 *
 * A websearch query is flat: `a b or "c d" -e` reads `'a' & 'b' | 'c' <-> 'd' & !'e'`, `&` and `<->` binding
 * tighter than `|`, parentheses only around phrases. `querytree` drops the negations; each `|` branch left
 * requires all of its lexemes, phrase or not. The result is twelve words: the bits every branch requires,
 * then the first branch's and the second's (both the same as the first four without `or`). All zeros (every
 * row passes) for a query of more than two branches, for `T` (negations only), or when the lexemes read back
 * from a branch do not satisfy it (a safeguard: a wrong mask would hide matches).
 *
 * It replaces `tracker_search_mask`, the one mask of queries without `or`.
 */
export class Migration20261124100000_issue_search_branch_masks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create ${TRACKER_SEARCH_MASKS}`);
    this.addSql("drop function tracker_search_mask(tsquery)");
  }

  override async down(): Promise<void> {
    this.addSql(`create ${TRACKER_SEARCH_MASK}`);
    this.addSql("drop function tracker_search_masks(tsquery)");
  }
}
