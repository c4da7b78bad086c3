import { lockIssues } from "../../../db/locks.js";
import { sqlOne } from "../../../db/sql.js";
import { q } from "../../../db/sql-fragment.js";
import { inTransaction } from "../../../db/transaction.js";
import { issueChange, recordChanges } from "../../../events/record-change.query.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { authorize } from "../../../rules/permissions.js";
import { resolveIssue } from "../../shared/resolve.query.js";

/**
 * `DELETE /issues/{identifier}`: admins, or the issue's creator (`issue.delete` in rules/permissions.ts).
 * Comments, relations, links, activity and the search and label mirrors go with the row (their foreign
 * keys cascade; the blocker and project-count triggers take it out of their counts); sub-issues lose their
 * parent. The issue is locked before the creator is read, so a concurrent write waits or sees it gone.
 */
export async function deleteIssue(scope: WorkspaceScope, ref: string): Promise<void> {
  await inTransaction(scope, async (tx) => {
    const issue = await resolveIssue(tx, ref);
    await lockIssues(tx.em, tx.workspace.id, [issue]);
    const row = await sqlOne<{ creator_id: string | null }>(
      tx.em,
      q`select creator_id from issues where id = ${issue.id} and workspace_id = ${tx.workspace.id}`,
    );
    authorize(tx, "issue.delete", { creatorId: row?.creator_id ?? null });
    await sqlOne(
      tx.em,
      q`delete from issues where id = ${issue.id} and workspace_id = ${tx.workspace.id} returning id`,
    );
    await recordChanges(tx.em, tx.workspace.id, [issueChange(issue, "deleted")]);
  });
}
