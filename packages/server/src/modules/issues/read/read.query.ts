import type { components } from "@tracker/sdk/schema";
import { sqlOne } from "../../../db/sql.js";
import { q, raw, type SqlFragment } from "../../../db/sql-fragment.js";
import { AUTH_EPOCH_SQL, confirmCaller } from "../../../http/auth.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { NotFound } from "../../../http/problem.js";
import { visibleTeamCondition } from "../../../rules/visibility.js";
import { type AttachmentRow, attachmentsJsonSql, toMedia } from "../../attachments/attachment.query.js";
import { branchName } from "../../codehost/branch-name.js";
import { pullRequestsJsonSql } from "../../codehost/codehost.query.js";
import { commentsJsonSql } from "../../comments/comment.query.js";
import { issueKeyQuery } from "../../shared/resolve.query.js";
import { type IssueRow, issueColumns, issueFromRow } from "../issue-shape.js";
import { relationsJsonSql } from "../write/relation.query.js";

export type IssueDetailOut = components["schemas"]["IssueDetail"];

/**
 * A JSON array of the sub-issues (of the issue whose id is the SQL expression `parentId`) the caller can
 * see and that are not archived (openapi.yaml, `getIssue`), ordered by team key and number, each shaped by `json` over `si` (issue), `sit` (team), `sis` (state).
 */
export function subIssuesJsonSql(scope: WorkspaceScope, parentId: string, json: string): SqlFragment {
  const vis = visibleTeamCondition(scope, "sit");
  return q`coalesce((select json_agg(${raw(json)} order by sit.key, si.number)
       from issues si join teams sit on sit.id = si.team_id join workflow_states sis on sis.id = si.state_id
      where si.parent_id = ${raw(parentId)} and si.archived_at is null and ${vis}), '[]'::json)`;
}

type IssueDetailRow = IssueRow &
  Pick<IssueDetailOut, "comments" | "subIssues" | "relations" | "pullRequests"> & {
    media: AttachmentRow[];
    authEpoch: string;
  };

/**
 * One issue with comments (oldest first), sub-issues (by number), relations from its side and attachments, in one
 * statement: the identifier (redirects and visibility included) resolves in a CTE.
 */
export async function getIssueDetail(scope: WorkspaceScope, ref: string): Promise<IssueDetailOut> {
  const target = issueKeyQuery(scope, ref);
  const row =
    target &&
    (await sqlOne<IssueDetailRow>(
      scope.em,
      q`with target as (${target})
        select ${issueColumns()},
               ${relationsJsonSql(scope, "i.id")} as "relations",
               ${raw(commentsJsonSql("i.id"))} as "comments",
               ${raw(attachmentsJsonSql("i.id"))} as "media",
               ${subIssuesJsonSql(
                 scope,
                 "i.id",
                 "json_build_object('identifier', sit.key || '-' || si.number, 'title', si.title, 'state', sis.name)",
               )} as "subIssues",
               ${pullRequestsJsonSql("i.id")} as "pullRequests",
               ${raw(AUTH_EPOCH_SQL)} as "authEpoch"
          from target k join issues i on i.id = k.id`,
      { prepare: true },
    ));
  confirmCaller(scope, row?.authEpoch);
  if (!row) throw new NotFound(`No issue "${ref}" in this workspace.`);
  const issue = issueFromRow(row);
  return {
    ...issue,
    comments: row.comments,
    subIssues: row.subIssues,
    relations: row.relations,
    pullRequests: row.pullRequests,
    media: row.media.map((m) => toMedia(scope.config, m)),
    branchName: branchName(issue.identifier, issue.title),
  };
}
