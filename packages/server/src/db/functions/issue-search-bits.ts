/**
 * Search bits: `issues.search_bits_0..3`, a 256-bit signature of the issue's full-text lexemes (each lexeme
 * sets the bit the first byte of its md5 names; md5, not hashtext, so the bits mean the same after a
 * PostgreSQL upgrade), kept by a trigger whenever title or description is written and carried by the
 * default sort's covering index. `tracker_search_masks(tsquery)` gives the bits a matching issue must have
 * (twelve words: those every `or` branch requires, then the first and the second branch's), so a search in
 * `updated` order rechecks only the rows whose bits hold them (`searchFirstSource` in
 * modules/issues/list/search.ts). Created by migrations `issue_search_bits` and
 * `issue_search_branch_masks`; `tracker_search_masks` as below since `issue_search_masks_simple`.
 */

export const TRACKER_SEARCH_BITS = `
      create function tracker_search_bits(lexemes text[]) returns bigint[]
      language sql immutable parallel safe strict as $$
        select array[coalesce(bit_or(1::bigint << (b & 63)) filter (where b >> 6 = 0), 0),
                     coalesce(bit_or(1::bigint << (b & 63)) filter (where b >> 6 = 1), 0),
                     coalesce(bit_or(1::bigint << (b & 63)) filter (where b >> 6 = 2), 0),
                     coalesce(bit_or(1::bigint << (b & 63)) filter (where b >> 6 = 3), 0)]
          from (select get_byte(decode(md5(l), 'hex'), 0) as b from unnest(lexemes) l) x
      $$`;

export const ISSUES_SEARCH_BITS = `
      create function issues_search_bits() returns trigger language plpgsql as $$
      declare
        lexeme text;
        b int;
        bits bigint[] := '{0, 0, 0, 0}';
      begin
        -- tracker_search_bits over the lexemes of ISSUE_SEARCH_VECTOR (the generated column is not computed
        -- yet in a before trigger), as a loop: a third of the time of calling the SQL function per row.
        foreach lexeme in array tsvector_to_array(
            to_tsvector('english', new.title) || to_tsvector('english', coalesce(new.description, ''))) loop
          b := get_byte(decode(md5(lexeme), 'hex'), 0);
          bits[(b >> 6) + 1] := bits[(b >> 6) + 1] | (1::bigint << (b & 63));
        end loop;
        new.search_bits_0 := bits[1]; new.search_bits_1 := bits[2];
        new.search_bits_2 := bits[3]; new.search_bits_3 := bits[4];
        return new;
      end $$`;

export const ISSUES_SEARCH_BITS_TRIGGER = `
      create trigger issues_search_bits before insert or update of title, description on issues
        for each row execute function issues_search_bits()`;

export const TRACKER_SEARCH_MASKS = `
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
      end $$`;
