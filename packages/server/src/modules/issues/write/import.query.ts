import { ENTER_IMPORT_MODE } from "../../../db/functions/import-mode.js";
import { sql, sqlOne } from "../../../db/sql.js";
import { q, raw } from "../../../db/sql-fragment.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { type IssueRow, issueColumns } from "../issue-shape.js";

/** The statements of `POST /import/issues` (import.service.ts): import mode, people, sources, the times. */

export interface Source {
  system: string;
  id: string;
  url?: string | null;
}

/** Import mode for the rest of the transaction (db/functions/import-mode.ts). */
export async function enterImportMode(tx: WorkspaceScope): Promise<void> {
  await sql(tx.em, raw(ENTER_IMPORT_MODE));
}

/**
 * The user of each email: a member's, or else the user with that email, or else a new placeholder (a user
 * with no membership, named by `names` or by the email's part before `@`). Keyed by the lower-cased email.
 */
export async function resolvePeople(
  tx: WorkspaceScope,
  emails: string[],
  names: Record<string, string>,
): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const named = emails.map((e) => names[e]?.trim() || e.split("@")[0] || e);
  const rows = await sql<{ id: string; email: string }>(
    tx.em,
    q`with wanted as (select * from unnest(${emails}::text[], ${named}::text[]) as w(email, name)),
        ins as (
          insert into users (id, email, name, placeholder, created_at)
          select gen_random_uuid(), w.email, w.name, true, now() from wanted w
          on conflict (email) do nothing
          returning id, email)
      select u.id, u.email from users u where u.email = any(${emails}::text[])
      union all select id, email from ins`,
  );
  return new Map(rows.map((r) => [r.email, r.id]));
}

export interface SourcedIssue {
  id: string;
  identifier: string;
  teamId: string;
}

/** The issue each source imported before, keyed `system\0id`. */
export async function issuesBySource(
  tx: WorkspaceScope,
  sources: Source[],
): Promise<Map<string, SourcedIssue>> {
  if (sources.length === 0) return new Map();
  const rows = await sql<SourcedIssue & { system: string; sid: string }>(
    tx.em,
    q`select i.id, t.key || '-' || i.number as identifier, i.team_id as "teamId",
             i.source_system as system, i.source_id as sid
        from issues i join teams t on t.id = i.team_id
       where i.workspace_id = ${tx.workspace.id}
         and (i.source_system, i.source_id) in
             (select * from unnest(${sources.map((s) => s.system)}::text[], ${sources.map((s) => s.id)}::text[]))`,
  );
  return new Map(rows.map(({ system, sid, ...r }) => [sourceKey({ system, id: sid }), r]));
}

export const sourceKey = (s: { system: string; id: string }) => `${s.system}\0${s.id}`;

/** The comment of the issue a source imported before, if any. */
export async function commentBySource(
  tx: WorkspaceScope,
  issueId: string,
  source: Source,
): Promise<{ id: string; body: string } | null> {
  const row = await sqlOne<{ id: string; body: string }>(
    tx.em,
    q`select id, body from comments
       where issue_id = ${issueId} and source_system = ${source.system} and source_id = ${source.id}`,
  );
  return row ?? null;
}

/** An imported comment's body replaced (not a revision of it: the other tracker's text, as it is now). */
export async function setImportedCommentBody(
  tx: WorkspaceScope,
  commentId: string,
  body: string,
): Promise<void> {
  await sql(tx.em, q`update comments set body = ${body} where id = ${commentId}`);
}

/** A comment's source, author and times as imported, and its `comment_added` activity's. */
export async function stampComment(
  tx: WorkspaceScope,
  commentId: string,
  source: Source,
  authorId: string | null,
  createdAt: string | null,
  updatedAt: string | null,
): Promise<void> {
  await sql(
    tx.em,
    q`with c as (
          update comments set source_system = ${source.system}, source_id = ${source.id},
                 source_url = ${source.url ?? null},
                 author_id = coalesce(${authorId}::uuid, author_id),
                 created_at = coalesce(${createdAt}::timestamptz, created_at),
                 updated_at = coalesce(${updatedAt}::timestamptz, ${createdAt}::timestamptz, updated_at)
           where id = ${commentId}
          returning id, author_id, created_at)
      update activity_events a set actor_id = c.author_id, created_at = c.created_at
        from c
       where a.workspace_id = ${tx.workspace.id} and a.type = 'comment_added'
         and a.payload->'comment'->>'id' = c.id::text`,
  );
}

export interface IssueStamp {
  source: Source;
  /** Whether the item names these; absent ones keep what the issue has. */
  creatorId?: string;
  assigneeId?: string | null;
  createdAt?: string;
  updatedAt?: string;
  completedAt?: string | null;
  /** When archived (null: not archived); the `issue_archived` activity this item recorded takes the time. */
  archivedAt?: string | null;
  archivedNow?: boolean;
  /** The issue was created by this item: its `issue_created` activity takes the creator and time. */
  created: boolean;
}

/**
 * An issue's source, people and times as imported. `completed_at` only in a finished state: the given one,
 * else the given `updatedAt`, else what the write set.
 */
export async function stampIssue(tx: WorkspaceScope, issueId: string, s: IssueStamp): Promise<void> {
  const has = (v: unknown) => v !== undefined;
  await sql(
    tx.em,
    q`with i as (
          update issues set source_system = ${s.source.system}, source_id = ${s.source.id},
                 source_url = ${s.source.url ?? null},
                 creator_id = case when ${has(s.creatorId)} then ${s.creatorId ?? null}::uuid else creator_id end,
                 assignee_id = case when ${has(s.assigneeId)} then ${s.assigneeId ?? null}::uuid else assignee_id end,
                 created_at = coalesce(${s.createdAt ?? null}::timestamptz, created_at),
                 updated_at = coalesce(${s.updatedAt ?? null}::timestamptz, updated_at),
                 completed_at = case when state_type not in ('completed', 'canceled') then null
                                     when ${has(s.completedAt)} then coalesce(${s.completedAt ?? null}::timestamptz, completed_at)
                                     else coalesce(${s.updatedAt ?? null}::timestamptz, completed_at) end,
                 archived_at = case when ${has(s.archivedAt)} then ${s.archivedAt ?? null}::timestamptz
                                    else archived_at end
           where id = ${issueId} and workspace_id = ${tx.workspace.id}
          returning id, creator_id, created_at, archived_at),
        archived as (
          update activity_events a set created_at = i.archived_at
            from i
           where ${s.archivedNow ?? false} and a.issue_id = i.id and a.type = 'issue_archived'
             and a.id = (select x.id from activity_events x where x.issue_id = i.id and x.type = 'issue_archived'
                          order by x.created_at desc limit 1)
          returning 1)
      update activity_events a set actor_id = i.creator_id, created_at = i.created_at
        from i
       where ${s.created} and a.issue_id = i.id and a.type = 'issue_created'`,
  );
}

/** Whether the issue is archived now. */
export async function isArchived(tx: WorkspaceScope, issueId: string): Promise<boolean> {
  const row = await sqlOne<{ archived: boolean }>(
    tx.em,
    q`select archived_at is not null as archived from issues where id = ${issueId}`,
  );
  return row?.archived ?? false;
}

/** The issues as the contract's `Issue` rows, in the order of `ids`. */
export async function readIssues(tx: WorkspaceScope, ids: string[]): Promise<IssueRow[]> {
  return sql<IssueRow>(
    tx.em,
    q`select ${issueColumns()} from unnest(${ids}::uuid[]) with ordinality as x(id, ord)
        join issues i on i.id = x.id order by x.ord`,
  );
}
