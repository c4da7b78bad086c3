import { lockIssues } from "../../db/locks.js";
import { inTransaction } from "../../db/transaction.js";
import { recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { authorize } from "../../rules/permissions.js";
import { commentAddedPayload, recordActivity } from "../activity/activity.query.js";
import { onComment } from "../agents/agent.service.js";
import { type IssueKey, resolveIssue } from "../shared/resolve.query.js";
import {
  type CommentOut,
  type CommentRevisionOut,
  commentOfIssue,
  deleteCommentRow,
  insertComment,
  loadComment,
  loadCommentRevisions,
  loadComments,
  lockCommentOfIssue,
  setCommentBody,
} from "./comment.query.js";

const issueChange = (issue: IssueKey) => ({
  identifier: issue.identifier,
  teamKey: issue.teamKey,
  teamId: issue.teamId,
});

export async function listComments(scope: WorkspaceScope, ref: string): Promise<CommentOut[]> {
  const issue = await resolveIssue(scope, ref);
  return loadComments(scope.em, issue.id);
}

/** A comment's earlier bodies, oldest first: anyone who sees the issue may read them, as its comments. */
export async function listCommentRevisions(
  scope: WorkspaceScope,
  ref: string,
  commentId: string,
): Promise<CommentRevisionOut[]> {
  const issue = await resolveIssue(scope, ref);
  return loadCommentRevisions(scope.em, await commentOfIssue(scope.em, issue.id, commentId));
}

/** Adds a comment by the caller, bumps the issue's `updatedAt` and records `comment_added`. */
export async function createComment(scope: WorkspaceScope, ref: string, body: string): Promise<CommentOut> {
  const id = await inTransaction(scope, async (tx) => {
    const issue = await resolveIssue(tx, ref);
    await lockIssues(tx.em, tx.workspace.id, [issue]);
    const commentId = await insertComment(tx, issue.id, body);
    await recordActivity(tx.em, {
      workspaceId: tx.workspace.id,
      issueId: issue.id,
      actorId: tx.caller.userId,
      type: "comment_added",
      payload: commentAddedPayload({ id: commentId, body }),
    });
    await recordChanges(tx.em, tx.workspace.id, [
      { entity: "comment", action: "created", id: commentId, ...issueChange(issue) },
      { entity: "issue", action: "updated", id: issue.id, ...issueChange(issue) },
    ]);
    // Agents it mentions, and sessions waiting for a person's answer (openapi.yaml, "Agents").
    await onComment(tx, { id: issue.id, ...issueChange(issue) }, commentId, body);
    return commentId;
  });
  return loadComment(scope.em, id);
}

/** Replaces a comment's body; only its author may. `edited` becomes true when the body changes. */
export async function updateComment(
  scope: WorkspaceScope,
  ref: string,
  commentId: string,
  body: string,
): Promise<CommentOut> {
  await inTransaction(scope, async (tx) => {
    const issue = await resolveIssue(tx, ref);
    await lockIssues(tx.em, tx.workspace.id, [issue]);
    const comment = await lockCommentOfIssue(tx, issue.id, commentId);
    authorize(tx, "comment.update", { authorId: comment.author_id });
    if (comment.body === body) return;
    await setCommentBody(tx.em, comment.id, body);
    await recordChanges(tx.em, tx.workspace.id, [
      { entity: "comment", action: "updated", id: comment.id, ...issueChange(issue) },
    ]);
  });
  return loadComment(scope.em, commentId);
}

/** Deletes a comment; its author and workspace admins may. */
export async function deleteComment(scope: WorkspaceScope, ref: string, commentId: string): Promise<void> {
  await inTransaction(scope, async (tx) => {
    const issue = await resolveIssue(tx, ref);
    await lockIssues(tx.em, tx.workspace.id, [issue]);
    const comment = await lockCommentOfIssue(tx, issue.id, commentId);
    authorize(tx, "comment.delete", { authorId: comment.author_id });
    await deleteCommentRow(tx.em, comment.id);
    await recordChanges(tx.em, tx.workspace.id, [
      { entity: "comment", action: "deleted", id: comment.id, ...issueChange(issue) },
    ]);
  });
}
