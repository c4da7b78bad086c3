import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { iso, sql, sqlOne } from "../../db/sql.js";
import { recordChanges } from "../../events/record-change.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Forbidden, NotFound } from "../../http/problem.js";
import { commentAddedPayload, recordActivity } from "../activity/activity.service.js";
import { inTransaction } from "../issues/in-transaction.js";
import { type IssueKey, isUuid, resolveIssue } from "../shared/resolve.js";

export type CommentOut = components["schemas"]["Comment"];

interface CommentRow {
  id: string;
  body: string;
  author_id: string;
  author_name: string;
  author_email: string;
  created_at: Date;
  updated_at: Date;
  edited: boolean;
}

// Comments whose author's user row is gone would have no author to show; users are never deleted by the
// API (removing a member keeps the user), so the inner join drops nothing in practice.
const COMMENT_SELECT = `select c.id, c.body, c.edited, c.created_at, c.updated_at,
         u.id as author_id, u.name as author_name, u.email as author_email
    from comments c join users u on u.id = c.author_id`;

function commentFromRow(r: CommentRow): CommentOut {
  return {
    id: r.id,
    body: r.body,
    author: { id: r.author_id, name: r.author_name, email: r.author_email },
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    edited: r.edited,
  };
}

/** The comments of an issue, oldest first, in one query. */
export async function loadComments(em: EntityManager, issueId: string): Promise<CommentOut[]> {
  const rows = await sql<CommentRow>(
    em,
    `${COMMENT_SELECT} where c.issue_id = ? order by c.created_at, c.id`,
    [issueId],
  );
  return rows.map(commentFromRow);
}

async function loadComment(em: EntityManager, id: string): Promise<CommentOut> {
  const row = await sqlOne<CommentRow>(em, `${COMMENT_SELECT} where c.id = ?`, [id]);
  if (!row) throw new NotFound("No such comment.");
  return commentFromRow(row);
}

const issueChange = (issue: IssueKey) => ({
  identifier: issue.identifier,
  teamKey: issue.teamKey,
  teamId: issue.teamId,
});

export async function listComments(scope: WorkspaceScope, ref: string): Promise<CommentOut[]> {
  const issue = await resolveIssue(scope, ref);
  return loadComments(scope.em, issue.id);
}

/** Adds a comment by the caller, bumps the issue's `updatedAt` and records `comment_added`. */
export async function createComment(scope: WorkspaceScope, ref: string, body: string): Promise<CommentOut> {
  const id = await inTransaction(scope, async (tx) => {
    const issue = await resolveIssue(tx, ref);
    const commentId = randomUUID();
    await sql(
      tx.em,
      `insert into comments (id, issue_id, author_id, body, edited, created_at, updated_at)
       values (?, ?, ?, ?, false, now(), now())`,
      [commentId, issue.id, tx.caller.userId, body],
    );
    await sql(tx.em, "update issues set updated_at = now() where id = ?", [issue.id]);
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
    return commentId;
  });
  return loadComment(scope.em, id);
}

/** The comment (locked), when it belongs to the issue; otherwise 404. */
async function commentOfIssue(tx: WorkspaceScope, issueId: string, commentId: string) {
  const row = isUuid(commentId)
    ? await sqlOne<{ id: string; author_id: string | null; body: string }>(
        tx.em,
        "select id, author_id, body from comments where id = ? and issue_id = ? for update",
        [commentId, issueId],
      )
    : undefined;
  if (!row) throw new NotFound(`No comment "${commentId}" on this issue.`);
  return row;
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
    const comment = await commentOfIssue(tx, issue.id, commentId);
    if (comment.author_id !== tx.caller.userId)
      throw new Forbidden("forbidden", "Only the author of a comment may edit it.");
    if (comment.body === body) return;
    await sql(tx.em, "update comments set body = ?, edited = true, updated_at = now() where id = ?", [
      body,
      comment.id,
    ]);
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
    const comment = await commentOfIssue(tx, issue.id, commentId);
    if (comment.author_id !== tx.caller.userId && tx.workspace.role !== "admin")
      throw new Forbidden("forbidden", "Only the comment's author or a workspace admin may delete it.");
    await sql(tx.em, "delete from comments where id = ?", [comment.id]);
    await recordChanges(tx.em, tx.workspace.id, [
      { entity: "comment", action: "deleted", id: comment.id, ...issueChange(issue) },
    ]);
  });
}
