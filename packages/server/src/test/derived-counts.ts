import type { TestServer } from "./harness.js";

const OPEN = "('backlog', 'unstarted', 'started')";

/**
 * Projects whose stored counts (`project_issue_counts`, kept by triggers; progress reads them) differ from
 * a fresh count of their issues. Empty when every write path kept them exact.
 */
export function driftedProjectCounts(srv: TestServer) {
  return srv.query(
    `select p.name, c.done, c.total, c.issue_count, f.done as fresh_done, f.total as fresh_total, f.n as fresh_n
       from projects p
       left join project_issue_counts c on c.project_id = p.id
       cross join lateral (
         select count(*) filter (where i.state_type = 'completed')::int as done,
                count(*) filter (where i.state_type <> 'canceled')::int as total, count(*)::int as n
           from issues i where i.project_id = p.id) f
      where c.project_id is null or (c.done, c.total, c.issue_count) <> (f.done, f.total, f.n)`,
  );
}

/** Issues whose stored blocked/blocking counters differ from their relations and states right now. */
export function driftedBlockers(srv: TestServer) {
  return srv.query(
    `select i.id, i.open_blockers, i.open_blocking, f.blockers, f.blocking
       from issues i
       cross join lateral (
         select (select count(*) from issue_relations r join issues b on b.id = r.issue_id
                  where r.related_issue_id = i.id and r.type = 'blocks' and b.state_type in ${OPEN})::int as blockers,
                (select count(*) from issue_relations r join issues t on t.id = r.related_issue_id
                  where r.issue_id = i.id and r.type = 'blocks' and t.state_type in ${OPEN})::int as blocking) f
      where (i.open_blockers, i.open_blocking) <> (f.blockers, f.blocking)`,
  );
}

/** Issues whose stored `label_ids` (kept by triggers; list pages read them) differ from their issue_labels. */
export function driftedLabelIds(srv: TestServer) {
  return srv.query(
    `select i.id, i.label_ids, f.ids
       from issues i
       cross join lateral (select coalesce(array_agg(il.label_id order by il.label_id), '{}') as ids
                             from issue_labels il where il.issue_id = i.id) f
      where (select coalesce(array_agg(x order by x), '{}') from unnest(i.label_ids) x) <> f.ids`,
  );
}

/** Projects whose stored `team_ids` (kept by triggers; lists read them) differ from their project_teams. */
export function driftedProjectTeamIds(srv: TestServer) {
  return srv.query(
    `select p.id, p.team_ids, f.ids
       from projects p
       cross join lateral (select coalesce(array_agg(pt.team_id order by pt.team_id), '{}') as ids
                             from project_teams pt where pt.project_id = p.id) f
      where (select coalesce(array_agg(x order by x), '{}') from unnest(p.team_ids) x) <> f.ids`,
  );
}
