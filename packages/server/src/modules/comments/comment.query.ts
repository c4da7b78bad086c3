import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import { isoSql } from "../../db/sql-time.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";
import { findById } from "../shared/resolve.query.js";

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

export async function loadComment(em: EntityManager, id: string): Promise<CommentOut> {
  const row = await sqlOne<{ comment: CommentOut }>(
    em,
    q`select ${raw(COMMENT_JSON)} as comment from ${raw(COMMENT_FROM)} where c.id = ${id}`,
  );
  if (!row) throw new NotFound("No such comment.");
  return row.comment;
}

/** Adds a comment by the caller to an issue and bumps the issue's `updatedAt`; the new comment's id. */
export async function insertComment(tx: WorkspaceScope, issueId: string, body: string): Promise<string> {
  const commentId = randomUUID();
  await sql(
    tx.em,
    q`insert into comments (id, issue_id, author_id, body, edited, created_at, updated_at)
     values (${commentId}, ${issueId}, ${tx.caller.userId}, ${body}, false, now(), now())`,
  );
  await sql(tx.em, q`update issues set updated_at = now() where id = ${issueId}`);
  return commentId;
}

/** The comment (locked), when it belongs to the issue; otherwise 404. */
export async function lockCommentOfIssue(tx: WorkspaceScope, issueId: string, commentId: string) {
  return findById(commentId, `No comment "${commentId}" on this issue.`, (id) =>
    sqlOne<{ id: string; author_id: string | null; body: string }>(
      tx.em,
      q`select id, author_id, body from comments where id = ${id} and issue_id = ${issueId} for update`,
    ),
  );
}

/** A comment's new body, marked edited; the body it replaces is kept as a revision (`listCommentRevisions`). */
export async function setCommentBody(em: EntityManager, id: string, body: string): Promise<void> {
  await sql(
    em,
    q`with old as (select id, body, updated_at from comments where id = ${id}),
          kept as (insert into comment_revisions (id, comment_id, body, written_at, replaced_at)
                   select gen_random_uuid(), id, body, updated_at, now() from old)
      update comments set body = ${body}, edited = true, updated_at = now() where id = ${id}`,
  );
}

export type CommentRevisionOut = components["schemas"]["CommentRevision"];

/** A comment's earlier bodies, oldest first (the comment's own `body` is the current one). */
export async function loadCommentRevisions(
  em: EntityManager,
  commentId: string,
): Promise<CommentRevisionOut[]> {
  return (
    await sql<{ revision: CommentRevisionOut }>(
      em,
      q`select json_build_object('body', body, 'writtenAt', ${raw(isoSql("written_at"))},
                                 'replacedAt', ${raw(isoSql("replaced_at"))}) as revision
          from comment_revisions where comment_id = ${commentId} order by replaced_at, id`,
    )
  ).map((r) => r.revision);
}

/** The comment's id when it belongs to the issue; otherwise 404. */
export async function commentOfIssue(em: EntityManager, issueId: string, commentId: string): Promise<string> {
  const row = await findById(commentId, `No comment "${commentId}" on this issue.`, (id) =>
    sqlOne<{ id: string }>(em, q`select id from comments where id = ${id} and issue_id = ${issueId}`),
  );
  return row.id;
}

export async function deleteCommentRow(em: EntityManager, id: string): Promise<void> {
  await sql(em, q`delete from comments where id = ${id}`);
}
