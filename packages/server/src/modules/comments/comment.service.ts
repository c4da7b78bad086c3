import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { lockIssues } from "../../db/locks.js";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import { isoSql } from "../../db/sql-time.js";
import { inTransaction } from "../../db/transaction.js";
import { recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";
import { authorize } from "../../rules/permissions.js";
import { commentAddedPayload, recordActivity } from "../activity/activity.query.js";
import { findById, type IssueKey, resolveIssue } from "../shared/resolve.query.js";

export type CommentOut = components["schemas"]["Comment"];

// Comments whose author's user row is gone would have no author to show; users are never deleted by the
// API (removing a member keeps the user), so the inner join drops nothing in practice.
const COMMENT_FROM = "comments c join users u on u.id = c.author_id";
const COMMENT_ORDER = "c.created_at, c.id";

/** One contract `Comment` as JSON, built in SQL over {@link COMMENT_FROM}. */
const COMMENT_JSON = `json_build_object(
    'id', c.id, 'body', c.body,
    'author', json_build_object('id', u.id, 'name', u.name, 'email', u.email),
    'createdAt', ${isoSql("c.created_at")}, 'updatedAt', ${isoSql("c.updated_at")}, 'edited', c.edited)`;

/**
 * A JSON array of the contract `Comment`s of the issue whose id is the SQL expression `issueId` (e.g. a
 * column of the enclosing query), oldest first: to read an issue's comments in the issue's own statement.
 */
export function commentsJsonSql(issueId: string): string {
  return `coalesce((select json_agg(${COMMENT_JSON} order by ${COMMENT_ORDER})
                      from ${COMMENT_FROM} where c.issue_id = ${issueId}), '[]'::json)`;
}

/** The comments of an issue, oldest first, in one query. */
export async function loadComments(em: EntityManager, issueId: string): Promise<CommentOut[]> {
  const rows = await sql<{ comment: CommentOut }>(
    em,
    q`select ${raw(COMMENT_JSON)} as comment from ${raw(COMMENT_FROM)} where c.issue_id = ${issueId} order by ${raw(COMMENT_ORDER)}`,
  );
  return rows.map((r) => r.comment);
}

async function loadComment(em: EntityManager, id: string): Promise<CommentOut> {
  const row = await sqlOne<{ comment: CommentOut }>(
    em,
    q`select ${raw(COMMENT_JSON)} as comment from ${raw(COMMENT_FROM)} where c.id = ${id}`,
  );
  if (!row) throw new NotFound("No such comment.");
  return row.comment;
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
    await lockIssues(tx.em, tx.workspace.id, [issue]);
    const commentId = randomUUID();
    await sql(
      tx.em,
      q`insert into comments (id, issue_id, author_id, body, edited, created_at, updated_at)
       values (${commentId}, ${issue.id}, ${tx.caller.userId}, ${body}, false, now(), now())`,
    );
    await sql(tx.em, q`update issues set updated_at = now() where id = ${issue.id}`);
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
  return findById(commentId, `No comment "${commentId}" on this issue.`, (id) =>
    sqlOne<{ id: string; author_id: string | null; body: string }>(
      tx.em,
      q`select id, author_id, body from comments where id = ${id} and issue_id = ${issueId} for update`,
    ),
  );
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
    const comment = await commentOfIssue(tx, issue.id, commentId);
    authorize(tx, "comment.update", { authorId: comment.author_id });
    if (comment.body === body) return;
    await sql(
      tx.em,
      q`update comments set body = ${body}, edited = true, updated_at = now() where id = ${comment.id}`,
    );
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
    const comment = await commentOfIssue(tx, issue.id, commentId);
    authorize(tx, "comment.delete", { authorId: comment.author_id });
    await sql(tx.em, q`delete from comments where id = ${comment.id}`);
    await recordChanges(tx.em, tx.workspace.id, [
      { entity: "comment", action: "deleted", id: comment.id, ...issueChange(issue) },
    ]);
  });
}
