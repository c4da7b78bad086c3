/**
 * `issue_search_recent`: each workspace's recently updated issues with their lexemes prefixed by the
 * workspace (`tracker_search_terms`), kept by a trigger on `issues` in the same transaction as every write,
 * under a GIN index of their own; `tracker_search_terms_query` prefixes a query the same way (null with a
 * phrase). `tracker_search_recent_prune(keep)` trims each workspace holding more than twice `keep` rows to
 * its `keep` newest, raising `issue_search_recent_since` (modules/issues/list/search-recent.query.ts runs it). Created
 * by migration `issue_search_recent`, whose comment tells the whole design.
 */

export const TRACKER_SEARCH_TERMS = `
      create function tracker_search_terms(workspace uuid, v tsvector) returns tsvector
      language sql immutable parallel safe strict as $$
        select array_to_tsvector(array(
          select left(workspace::text, 8) || ':' || l from unnest(tsvector_to_array(v)) l where l !~ ' '))
      $$`;

export const TRACKER_SEARCH_TERMS_QUERY = `
      create function tracker_search_terms_query(workspace uuid, query tsquery) returns tsquery
      language sql immutable parallel safe strict as $$
        select case when regexp_replace(t.text, '''(([^''\\\\]|''''|\\\\.)*)''', '', 'g') ~ '<'
                    then null
                    else regexp_replace(t.text, '''(([^''\\\\]|''''|\\\\.)*)''',
                                        '''' || left(workspace::text, 8) || ':\\1''', 'g')::tsquery end
          from (select query::text as text) t
      $$`;

export const ISSUES_SEARCH_RECENT = `
      create function issues_search_recent() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and new.search_vector is not distinct from old.search_vector
           and new.workspace_id = old.workspace_id then
          update issue_search_recent
             set team_id = new.team_id, number = new.number, updated_at = new.updated_at
           where issue_id = new.id;
          if found then
            return null;
          end if;
        end if;
        insert into issue_search_recent (issue_id, workspace_id, team_id, number, updated_at, terms)
        values (new.id, new.workspace_id, new.team_id, new.number, new.updated_at,
                tracker_search_terms(new.workspace_id, new.search_vector))
        on conflict (issue_id) do update
          set workspace_id = excluded.workspace_id, team_id = excluded.team_id, number = excluded.number,
              updated_at = excluded.updated_at, terms = excluded.terms;
        return null;
      end $$`;

export const ISSUES_SEARCH_RECENT_TRIGGER = `
      create trigger issues_search_recent
        after insert or update of title, description, updated_at, team_id, number, workspace_id on issues
        for each row execute function issues_search_recent()`;

export const TRACKER_SEARCH_RECENT_PRUNE = `
      create function tracker_search_recent_prune(keep int) returns bigint language sql volatile as $$
        with over as (
          select workspace_id from issue_search_recent group by workspace_id having count(*) > 2 * keep),
        cut as (
          select o.workspace_id,
                 (select r.updated_at from issue_search_recent r where r.workspace_id = o.workspace_id
                   order by r.updated_at desc offset keep - 1 limit 1) as since
            from over o),
        raised as (
          insert into issue_search_recent_since (workspace_id, since)
          select cut.workspace_id, cut.since from cut join workspaces w on w.id = cut.workspace_id
          on conflict (workspace_id) do update
            set since = greatest(issue_search_recent_since.since, excluded.since)
          returning workspace_id, since),
        gone as (
          delete from issue_search_recent r using raised
           where r.workspace_id = raised.workspace_id and r.updated_at < raised.since
          returning 1)
        select count(*) from gone
      $$`;
