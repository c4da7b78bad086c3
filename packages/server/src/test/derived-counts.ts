import { OPEN_STATE_TYPES_SQL as OPEN } from "../rules/state-types.js";
import type { TestServer } from "./harness.js";

/**
 * Projects whose stored counts (`project_issue_counts`, kept by triggers; progress reads them) differ from
 * a fresh count of their issues (archived ones count nowhere). Empty when every write path kept them exact.
 */
export function driftedProjectCounts(srv: TestServer) {
  return srv.query(
    `select p.name, c.done, c.total, c.issue_count, f.done as fresh_done, f.total as fresh_total, f.n as fresh_n
       from projects p
       left join project_issue_counts c on c.project_id = p.id
       cross join lateral (
         select count(*) filter (where i.state_type = 'completed')::int as done,
                count(*) filter (where i.state_type <> 'canceled')::int as total, count(*)::int as n
           from issues i where i.project_id = p.id and i.archived_at is null) f
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

/**
 * Rows of `table` whose stored id array `column` (kept by triggers from the link table; list pages read
 * it) differs, as a set, from their rows in `link`.
 */
function driftedIdArrays(
  srv: TestServer,
  table: string,
  column: string,
  link: string,
  owner: string,
  member: string,
) {
  return srv.query(
    `select x.id, x.${column}, f.ids
       from ${table} x
       cross join lateral (select coalesce(array_agg(l.${member} order by l.${member}), '{}') as ids
                             from ${link} l where l.${owner} = x.id) f
      where (select coalesce(array_agg(v order by v), '{}') from unnest(x.${column}) v) <> f.ids`,
  );
}

/** Issues whose stored `label_ids` differ from their issue_labels. */
export function driftedLabelIds(srv: TestServer) {
  return driftedIdArrays(srv, "issues", "label_ids", "issue_labels", "issue_id", "label_id");
}

/** Projects whose stored `team_ids` differ from their project_teams. */
export function driftedProjectTeamIds(srv: TestServer) {
  return driftedIdArrays(srv, "projects", "team_ids", "project_teams", "project_id", "team_id");
}

/**
 * Teams' stored per-state counts (`team_state_counts`, kept by triggers; a board's columns read them) that
 * differ from a fresh count of the issues not archived. Empty when every write path kept them exact.
 */
export function driftedTeamStateCounts(srv: TestServer) {
  return srv.query(
    `select coalesce(f.team_id, c.team_id) as team_id, coalesce(f.state_id, c.state_id) as state_id,
            c.n as stored, f.n as fresh
       from (select team_id, state_id, count(*)::int as n from issues where archived_at is null
              group by team_id, state_id) f
       full join (select * from team_state_counts where n <> 0) c
         on c.team_id = f.team_id and c.state_id = f.state_id
      where c.n is distinct from f.n`,
  );
}
