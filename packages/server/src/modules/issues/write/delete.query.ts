import { lockIssues } from "../../../db/locks.js";
import { sqlOne } from "../../../db/sql.js";
import { q } from "../../../db/sql-fragment.js";
import { inTransaction } from "../../../db/transaction.js";
import { issueChange, recordChanges } from "../../../events/record-change.query.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { authorize } from "../../../rules/permissions.js";
import { storageKeysOfIssue } from "../../attachments/attachment.query.js";
import { attachmentStore } from "../../attachments/attachment-store.js";
import { resolveIssue } from "../../shared/resolve.query.js";

/**
 * `DELETE /issues/{identifier}`: admins, or the issue's creator (`issue.delete` in rules/permissions.ts).
 * Comments, relations, links, activity and the search and label mirrors go with the row (their foreign
 * keys cascade; the blocker and project-count triggers take it out of their counts); sub-issues lose their
 * parent. The issue is locked before the creator is read, so a concurrent write waits or sees it gone.
 * Its attachments' rows cascade too; their files are removed once the delete has committed (what fails
 * there, the orphan sweep of `attachments/attachment-sweep.ts` removes later).
 */
export async function deleteIssue(scope: WorkspaceScope, ref: string): Promise<void> {
  const keys = await inTransaction(scope, async (tx) => {
    const issue = await resolveIssue(tx, ref);
    await lockIssues(tx.em, tx.workspace.id, [issue]);
    const row = await sqlOne<{ creator_id: string | null }>(
      tx.em,
      q`select creator_id from issues where id = ${issue.id} and workspace_id = ${tx.workspace.id}`,
    );
    authorize(tx, "issue.delete", { creatorId: row?.creator_id ?? null });
    const keys = await storageKeysOfIssue(tx.em, issue.id);
    await sqlOne(
      tx.em,
      q`delete from issues where id = ${issue.id} and workspace_id = ${tx.workspace.id} returning id`,
    );
    await recordChanges(tx.em, tx.workspace.id, [issueChange(issue, "deleted")]);
    return keys;
  });
  const store = attachmentStore(scope.config);
  for (const key of keys)
    await store
      .remove(key)
      .catch((err) =>
        scope.logger.warn("attachment: file not removed", { key, error: (err as Error).message }),
      );
}
