import { Migration } from "@mikro-orm/migrations";
import { TRACKER_SEARCH_MASKS } from "./Migration20261124100000_issue_search_branch_masks.js";

/**
 * `tracker_search_masks` without queries inside it: a search statement calls it once per execution, and each
 * query a PL/pgSQL function runs (the `regexp_matches` of each branch, `tracker_search_bits`) starts an
 * executor of its own. The same masks (compared on every query of search.test.ts and the bench's), in half
 * the time: 0.085 -> 0.04 ms per call.
 *
 * - A branch's lexemes are read by its text cast to a tsvector once its operators are blanked out, which
 *   undoes the tsquery quoting exactly. An operator inside a quoted lexeme is blanked too; the lexemes read
 *   back then fail the safeguard (they must satisfy the branch), and the masks are zero (every row passes).
 * - Parentheses (not produced by websearch syntax) give zero masks instead of a split that could be wrong.
 * - The bits are `tracker_search_bits`', in a loop.
 */
export class Migration20261124180000_issue_search_masks_simple extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create or replace function tracker_search_masks(query tsquery) returns bigint[]
      language plpgsql immutable parallel safe strict as $$
      declare
        tree text := querytree(query);
        branch text;
        lexemes text[];
        lexeme text;
        b int;
        bits bigint[];
        masks bigint[] := '{}';
      begin
        if tree in ('', 'T') or tree ~ '[()]' then
          return array_fill(0::bigint, array[12]);
        end if;
        foreach branch in array string_to_array(tree, ' | ') loop
          lexemes := tsvector_to_array(regexp_replace(branch, '&|<->|<[0-9]+>', ' ', 'g')::tsvector);
          if cardinality(lexemes) = 0
             or not (array_to_tsvector(lexemes) @@ regexp_replace(branch, '<(-|[0-9]+)>', '&', 'g')::tsquery) then
            return array_fill(0::bigint, array[12]);
          end if;
          bits := '{0, 0, 0, 0}';
          foreach lexeme in array lexemes loop
            b := get_byte(decode(md5(lexeme), 'hex'), 0);
            bits[(b >> 6) + 1] := bits[(b >> 6) + 1] | (1::bigint << (b & 63));
          end loop;
          masks := masks || bits;
        end loop;
        if cardinality(masks) = 4 then
          return masks || masks || masks;
        elsif cardinality(masks) = 8 then
          return array[masks[1] & masks[5], masks[2] & masks[6], masks[3] & masks[7], masks[4] & masks[8]] || masks;
        end if;
        return array_fill(0::bigint, array[12]);
      exception when others then
        return array_fill(0::bigint, array[12]);
      end $$`);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace ${TRACKER_SEARCH_MASKS}`);
  }
}
