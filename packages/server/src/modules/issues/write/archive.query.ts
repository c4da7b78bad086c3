import { lockIssues } from "../../../db/locks.js";
import { sqlOne } from "../../../db/sql.js";
import { q, raw } from "../../../db/sql-fragment.js";
import { inTransaction } from "../../../db/transaction.js";
import { changeEventsSql, changeValues, issueChange } from "../../../events/record-change.query.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { activityInsertSql } from "../../activity/activity.query.js";
import { resolveIssue } from "../../shared/resolve.query.js";
import { ISSUE_COLUMNS, ISSUE_FROM, type IssueOut, type IssueRow, issueFromRow } from "../issue-shape.js";

/**
 * `POST /issues/{identifier}/archive` (`archived` true) and `/unarchive` (false): whoever may update the
 * issue (`issue.write`, asked by the pipeline; the issue resolves only if the caller sees it). The issue is
 * locked, then read: one already so is answered as it is, with nothing recorded (idempotent, as the contract
 * says). Otherwise one statement sets `archived_at` (and `updated_at`), records the `issue_archived` or
 * `issue_unarchived` activity with the actor, and the `issue` `updated` change the stream and webhooks
 * announce. Project counts follow by trigger (db/functions/project-issue-counts.ts); lists by their
 * condition (`notArchivedSql`, list/filter.ts). Nothing else changes: comments, attachments, relations and
 * history stay with the issue.
 */
export async function setArchived(scope: WorkspaceScope, ref: string, archived: boolean): Promise<IssueOut> {
  return inTransaction(scope, async (tx) => {
    const issue = await resolveIssue(tx, ref);
    await lockIssues(tx.em, tx.workspace.id, [issue]);
    const now = await sqlOne<IssueRow & { isArchived: boolean }>(
      tx.em,
      q`select ${raw(ISSUE_COLUMNS)}, i.archived_at is not null as "isArchived"
          from ${raw(ISSUE_FROM)} where i.id = ${issue.id} and i.workspace_id = ${tx.workspace.id}`,
    );
    if (now!.isArchived === archived) return issueFromRow(now!);
    const recorded = changeEventsSql("chg", tx.workspace.id, changeValues([issueChange(issue, "updated")]));
    const activity = activityInsertSql([
      {
        workspaceId: tx.workspace.id,
        issueId: issue.id,
        actorId: tx.caller.userId,
        type: archived ? "issue_archived" : "issue_unarchived",
        payload: {},
      },
    ]);
    const row = await sqlOne<IssueRow>(
      tx.em,
      q`with upd as (
          update issues set archived_at = ${archived ? q`now()` : q`null`}, updated_at = now()
           where id = ${issue.id} and workspace_id = ${tx.workspace.id} returning *),
        act as (${activity}),
        ${recorded.ctes}
      select ${raw(ISSUE_COLUMNS)}, ${recorded.notify} as notified from upd i`,
    );
    return issueFromRow(row!);
  });
}
