import { FINISHED_STATE_TYPES_SQL } from "../rules/state-types.js";
import type { TestServer } from "./harness.js";

/**
 * Facts about the whole database that no sequence of requests, concurrent or not, may break: what an issue
 * points at belongs to its own team or workspace, what hangs off a project or a status update stays in its
 * workspace, identifiers are unique, and finished issues carry their completion time. Each entry names a
 * rule and counts the rows that break it; `brokenInvariants` returns only the rules with any.
 */
const RULES: Record<string, string> = {
  "issue and its team in one workspace": `select count(*) from issues i join teams t on t.id = i.team_id
     where t.workspace_id <> i.workspace_id`,
  "issue state of its own team": `select count(*) from issues i join workflow_states s on s.id = i.state_id
     where s.team_id <> i.team_id or s.type <> i.state_type`,
  "issue cycle of its own team": `select count(*) from issues i join cycles c on c.id = i.cycle_id
     where c.team_id <> i.team_id`,
  "issue project includes its team": `select count(*) from issues i where i.project_id is not null
     and not exists (select 1 from project_teams pt where pt.project_id = i.project_id and pt.team_id = i.team_id)`,
  "issue project in its workspace": `select count(*) from issues i join projects p on p.id = i.project_id
     where p.workspace_id <> i.workspace_id`,
  "issue labels of its workspace": `select count(*) from issue_labels il join issues i on i.id = il.issue_id
     join labels l on l.id = il.label_id where l.workspace_id <> i.workspace_id`,
  "issue parent in its workspace": `select count(*) from issues i join issues p on p.id = i.parent_id
     where p.workspace_id <> i.workspace_id`,
  "relation within one workspace": `select count(*) from issue_relations r join issues a on a.id = r.issue_id
     join issues b on b.id = r.related_issue_id
     where a.workspace_id <> b.workspace_id or r.workspace_id <> a.workspace_id`,
  "project teams of its workspace": `select count(*) from project_teams pt join projects p on p.id = pt.project_id
     join teams t on t.id = pt.team_id where t.workspace_id <> p.workspace_id`,
  "project initiative of its workspace": `select count(*) from projects p join initiatives n on n.id = p.initiative_id
     where n.workspace_id <> p.workspace_id`,
  "document issues of its workspace": `select count(*) from document_issues di join documents d on d.id = di.document_id
     join issues i on i.id = di.issue_id where i.workspace_id <> d.workspace_id`,
  "status update citations of its workspace": `select count(*) from status_update_issues sui
     join status_updates su on su.id = sui.update_id join issues i on i.id = sui.issue_id
     where i.workspace_id <> su.workspace_id`,
  "activity of the issue's workspace": `select count(*) from activity_events a join issues i on i.id = a.issue_id
     where a.workspace_id <> i.workspace_id`,
  "identifiers unique per team": `select count(*) from (select team_id, number from issues
     group by team_id, number having count(*) > 1) d`,
  "numbers never past the team's counter": `select count(*) from issues i join teams t on t.id = i.team_id
     where i.number > t.issue_counter`,
  "finished issues carry completedAt": `select count(*) from issues
     where (state_type in ${FINISHED_STATE_TYPES_SQL}) <> (completed_at is not null)`,
  // Search answers from the recent issues only what they hold since the workspace's cut.
  "recent issues for search hold every issue updated since": `select count(*) from issues i
     left join issue_search_recent_since s on s.workspace_id = i.workspace_id
     where i.updated_at >= coalesce(s.since, '-infinity')
       and not exists (select 1 from issue_search_recent r where r.issue_id = i.id)`,
  "recent issues for search as their issues are": `select count(*) from issue_search_recent r
     join issues i on i.id = r.issue_id
     where (r.workspace_id, r.team_id, r.number, r.updated_at, r.terms)
           is distinct from (i.workspace_id, i.team_id, i.number, i.updated_at,
                             tracker_search_terms(i.workspace_id, i.search_vector))`,
  // The walk of a label filter reads each label's issues from these rows, never the issues themselves.
  "label postings as their issues are": `with
       kept as (select issue_id, label_id, workspace_id, team_id, number, updated_at, label_ids
                  from issue_label_postings),
       due as (select i.id, l.id, i.workspace_id, i.team_id, i.number, i.updated_at, i.label_ids
                 from issues i cross join unnest(i.label_ids) l(id))
     select count(*) from ((select * from due except all select * from kept)
                           union all (select * from kept except all select * from due)) d`,
};

export async function brokenInvariants(srv: TestServer): Promise<Record<string, number>> {
  const broken: Record<string, number> = {};
  for (const [rule, query] of Object.entries(RULES)) {
    const [row] = await srv.query<{ count: string }>(query);
    const n = Number(row!.count);
    if (n > 0) broken[rule] = n;
  }
  return broken;
}
