/**
 * An issue's full-text document, `issues.search_vector` (generated from `tracker_issue_search_vector`, see
 * `ISSUE_SEARCH_VECTOR` in modules/issues/issue.entity.ts): title (weight A) and description (B), plus each
 * pair of adjacent lexemes as one lexeme of its own ("dark mode", which the parser never makes). A search
 * with a quoted phrase also requires the phrase's pairs (`tracker_phrase_query`), so the GIN index returns
 * the issues where those words stand together. Created by migration `issue_search_pairs`.
 */

export const TRACKER_ADJACENT_PAIRS = `
      create function tracker_adjacent_pairs(v tsvector) returns tsvector
      language sql immutable parallel safe strict as $$
        with u as materialized (select u.lexeme, unnest(u.positions) as p from unnest(v) u)
        select coalesce(array_to_tsvector(array_agg(distinct a.lexeme || ' ' || b.lexeme)), ''::tsvector)
          from u a join u b on b.p = a.p + 1
      $$`;

export const TRACKER_ISSUE_SEARCH_VECTOR = `
      create function tracker_issue_search_vector(title text, description text) returns tsvector
      language plpgsql immutable parallel safe as $$
      declare
        v tsvector := setweight(to_tsvector('english', title), 'A')
                      || setweight(to_tsvector('english', coalesce(description, '')), 'B');
      begin
        return v || tracker_adjacent_pairs(v);
      end $$`;

export const TRACKER_PHRASE_QUERY = `
      create function tracker_phrase_query(query tsquery, phrases text[]) returns tsquery
      language sql immutable parallel safe as $$
        select case when count(pair) = 0 then query
                    else query && string_agg('''' || replace(pair, '''', '''''') || '''', ' & ')::tsquery end
          from (select distinct pair
                  from unnest(phrases) phrase,
                       lateral (select to_tsvector('english', phrase) as v) t,
                       lateral unnest(tsvector_to_array(tracker_adjacent_pairs(t.v))) pair
                 where pair !~ '[\\\\:]'
                   and not exists (select 1 from unnest(t.v) u, unnest(u.positions) p
                                    group by p having count(*) > 1)) x
      $$`;
