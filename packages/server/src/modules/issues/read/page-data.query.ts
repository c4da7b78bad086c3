import type { components } from "@tracker/sdk/schema";
import { sqlOne } from "../../../db/sql.js";
import { q, raw } from "../../../db/sql-fragment.js";
import { isoSql } from "../../../db/sql-time.js";
import { AUTH_EPOCH_SQL, confirmCaller } from "../../../http/auth.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { NotFound } from "../../../http/problem.js";
import type { StateType } from "../../../rules/state-types.js";
import { memberSeesTeamSql, visibleTeamCondition } from "../../../rules/visibility.js";
import { type AttachmentRow, attachmentsJsonSql, toMedia } from "../../attachments/attachment.query.js";
import { branchName } from "../../codehost/branch-name.js";
import { pullRequestsJsonSql } from "../../codehost/codehost.query.js";
import { type CommentOut, commentsJsonSql } from "../../comments/comment.query.js";
import { issueKeyQuery } from "../../shared/resolve.query.js";
import type { IssueOut } from "../issue-shape.js";
import {
  openBlockersJsonSql,
  type RelatedIssueOut,
  type RelationOut,
  relationsJsonSql,
} from "../write/relation.query.js";
import { subIssuesJsonSql } from "./read.query.js";

export type IssuePageDataOut = components["schemas"]["IssuePageData"];

const ESTIMATE_SCALES: Record<string, [number, string][]> = {
  none: [],
  linear: [1, 2, 3, 4, 5].map((v) => [v, String(v)]),
  fibonacci: [1, 2, 3, 5, 8].map((v) => [v, String(v)]),
  exponential: [1, 2, 4, 8, 16].map((v) => [v, String(v)]),
  tshirt: [
    [1, "XS"],
    [2, "S"],
    [3, "M"],
    [5, "L"],
    [8, "XL"],
  ],
};
/** The options of a team's estimate scale, as `{value, label}`. */
export function estimateOptions(scale: string): { value: number; label: string }[] {
  return (ESTIMATE_SCALES[scale] ?? []).map(([value, label]) => ({ value, label }));
}

interface PageDataRow {
  auth_epoch: string;
  id: string;
  identifier: string;
  title: string;
  description: string | null;
  priority: number;
  estimate: number | null;
  state_id: string;
  assignee_id: string | null;
  project_id: string | null;
  cycle_id: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  team_id: string;
  team_key: string;
  team_name: string;
  cycles_enabled: boolean;
  estimate_scale: string;
  states: { id: string; name: string; type: StateType; color: string; position: number }[] | null;
  parent: { identifier: string; team: { key: string } } | null;
  labels: { name: string; color: string }[];
  members: { id: string; name: string; email: string }[];
  projects: { id: string; name: string }[];
  cycles: { id: string; number: number; name: string | null }[];
  comments: CommentOut[];
  media: AttachmentRow[];
  subIssues: {
    id: string;
    key: string;
    number: number;
    title: string;
    state_name: string;
    state_type: StateType;
    state_color: string;
  }[];
  documents: { id: string; title: string }[];
  relations: RelationOut[];
  blockedByOpen: RelatedIssueOut[];
  links: { id: string; url: string; title: string | null }[];
  pullRequests: IssuePageDataOut["pullRequests"];
}

/**
 * Everything the web issue page renders, in one statement: the identifier resolves in a CTE and each key
 * is a subquery aggregating its rows to JSON; nothing is loaded per row. `media`: the attachments, their
 * URLs signed here (`attachments/signed-url.ts`).
 */
export async function getIssuePageData(scope: WorkspaceScope, ref: string): Promise<IssuePageDataOut> {
  const target = issueKeyQuery(scope, ref);
  const pvis = visibleTeamCondition(scope, "pt");
  const dvis = visibleTeamCondition(scope, "dt");
  // `members`: who may be assigned, the workspace's members who see the team.
  const issue =
    target &&
    (await sqlOne<PageDataRow>(
      scope.em,
      q`with target as (${target})
        select i.id, t.key || '-' || i.number as identifier, i.title, i.description, i.priority, i.estimate,
               i.state_id, i.assignee_id, i.project_id, i.cycle_id, ${raw(isoSql("i.created_at"))} as created_at,
               ${raw(isoSql("i.updated_at"))} as updated_at, ${raw(isoSql("i.completed_at"))} as completed_at,
               t.id as team_id, t.key as team_key, t.name as team_name, t.cycles_enabled, t.estimate_scale,
               (select json_agg(json_build_object('id', s.id, 'name', s.name, 'type', s.type, 'color', s.color,
                                                  'position', s.position) order by s.position, s.id)
                  from workflow_states s where s.team_id = t.id) as states,
               case when pi.id is not null and ${pvis}
                    then json_build_object('identifier', pt.key || '-' || pi.number, 'team', json_build_object('key', pt.key))
               end as parent,
               coalesce((select json_agg(json_build_object('name', l.name, 'color', l.color) order by l.name)
                           from issue_labels il join labels l on l.id = il.label_id where il.issue_id = i.id),
                        '[]') as labels,
               coalesce((select json_agg(json_build_object('id', u.id, 'name', u.name, 'email', u.email)
                                         order by lower(u.name), u.id)
                           from memberships m join users u on u.id = m.user_id
                          where m.workspace_id = ${scope.workspace.id}
                            and ${raw(memberSeesTeamSql("t", "u", "m"))}), '[]') as members,
               coalesce((select json_agg(json_build_object('id', p.id, 'name', p.name) order by lower(p.name), p.id)
                           from projects p join project_teams ptm on ptm.project_id = p.id and ptm.team_id = t.id),
                        '[]') as projects,
               coalesce((select json_agg(json_build_object('id', c.id, 'number', c.number, 'name', c.name)
                                         order by c.number desc)
                           from cycles c where c.team_id = t.id), '[]') as cycles,
               ${raw(commentsJsonSql("i.id"))} as comments,
               ${raw(attachmentsJsonSql("i.id"))} as media,
               ${subIssuesJsonSql(
                 scope,
                 "i.id",
                 `json_build_object('id', si.id, 'key', sit.key, 'number', si.number, 'title', si.title,
                                    'state_name', sis.name, 'state_type', sis.type, 'state_color', sis.color)`,
               )} as "subIssues",
               coalesce((select json_agg(json_build_object('id', d.id, 'title', d.title) order by lower(d.title), d.id)
                           from document_issues di join documents d on d.id = di.document_id
                           join teams dt on dt.id = d.team_id
                          where di.issue_id = i.id and ${dvis}), '[]') as documents,
               ${relationsJsonSql(scope, "i.id")} as relations,
               ${openBlockersJsonSql(scope, "i.id")} as "blockedByOpen",
               coalesce((select json_agg(json_build_object('id', lk.id, 'url', lk.url, 'title', lk.title)
                                         order by lk.created_at, lk.id)
                           from issue_links lk where lk.issue_id = i.id), '[]') as links,
               ${pullRequestsJsonSql("i.id")} as "pullRequests",
               ${raw(AUTH_EPOCH_SQL)} as auth_epoch
          from target k join issues i on i.id = k.id join teams t on t.id = i.team_id
          left join issues pi on pi.id = i.parent_id
          left join teams pt on pt.id = pi.team_id`,
      { prepare: true },
    ));
  confirmCaller(scope, issue?.auth_epoch);
  if (!issue) throw new NotFound(`No issue "${ref}" in this workspace.`);
  return {
    issue: {
      id: issue.id,
      identifier: issue.identifier,
      branchName: branchName(issue.identifier, issue.title),
      path: `/${scope.workspace.slug}/issue/${issue.identifier}`,
      title: issue.title,
      description: issue.description,
      priority: issue.priority as IssueOut["priority"],
      estimate: issue.estimate,
      stateId: issue.state_id,
      assigneeId: issue.assignee_id,
      projectId: issue.project_id,
      cycleId: issue.cycle_id,
      createdAt: issue.created_at,
      updatedAt: issue.updated_at,
      completedAt: issue.completed_at,
      team: {
        id: issue.team_id,
        key: issue.team_key,
        name: issue.team_name,
        cyclesEnabled: issue.cycles_enabled,
        states: issue.states ?? [],
      },
      parent: issue.parent,
      labels: issue.labels,
    },
    estimates: estimateOptions(issue.estimate_scale),
    members: issue.members,
    projects: issue.projects,
    cycles: issue.cycles,
    comments: issue.comments.map((c) => ({
      id: c.id,
      body: c.body,
      authorId: c.author.id,
      authorName: c.author.name,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
    })),
    subIssues: issue.subIssues.map((s) => ({
      id: s.id,
      team: { key: s.key },
      number: s.number,
      title: s.title,
      state: { name: s.state_name, type: s.state_type, color: s.state_color },
    })),
    documents: issue.documents.map((d) => ({ documentId: d.id, document: { id: d.id, title: d.title } })),
    relations: issue.relations,
    blockedByOpen: issue.blockedByOpen,
    media: issue.media.map((m) => toMedia(scope.config, m)),
    links: issue.links,
    pullRequests: issue.pullRequests,
  };
}
