import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { holdInWorkspace } from "../../db/locks.js";
import { sql, sqlOne } from "../../db/sql.js";
import { joinSql, q, raw, type SqlFragment } from "../../db/sql-fragment.js";
import { iso } from "../../db/sql-time.js";
import type { Change } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { visibleTeamCondition } from "../../rules/visibility.js";
import { findById, resolveIssue, resolveTeam } from "../shared/resolve.query.js";
import { DOCUMENT_SEARCH_VECTOR } from "./document.entity.js";

export type DocumentOut = components["schemas"]["Document"];

interface DocumentRow {
  id: string;
  title: string;
  content: string | null;
  team_key: string;
  team_name: string;
  creator_id: string | null;
  creator_name: string | null;
  issues: { identifier: string; title: string }[];
  created_at: Date;
  updated_at: Date;
}

/** Creators are never deleted by any operation; the fallback only keeps a damaged row readable. */
const UNKNOWN_USER = { id: "00000000-0000-0000-0000-000000000000", name: "Unknown user" };

function toDocument(r: DocumentRow): DocumentOut {
  return {
    id: r.id,
    title: r.title,
    team: { key: r.team_key, name: r.team_name },
    content: r.content,
    creator: r.creator_id ? { id: r.creator_id, name: r.creator_name ?? "" } : UNKNOWN_USER,
    issues: r.issues,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

/**
 * Selects documents the caller may see, each with its linked issues (only those the caller may see) in
 * the same statement. `where` is ANDed; its params follow.
 */
async function selectDocuments(
  scope: WorkspaceScope,
  em: EntityManager,
  where: SqlFragment[],
): Promise<DocumentOut[]> {
  const teamVis = visibleTeamCondition(scope, "t");
  const issueVis = visibleTeamCondition(scope, "it");
  const rows = await sql<DocumentRow>(
    em,
    q`select d.id, d.title, d.content, d.created_at, d.updated_at, t.key as team_key, t.name as team_name,
            u.id as creator_id, u.name as creator_name,
            coalesce((select json_agg(json_build_object('identifier', it.key || '-' || i.number, 'title', i.title)
                                      order by it.key, i.number)
                        from document_issues di
                        join issues i on i.id = di.issue_id
                        join teams it on it.id = i.team_id
                       where di.document_id = d.id and ${issueVis}), '[]'::json) as issues
       from documents d
       join teams t on t.id = d.team_id
       left join users u on u.id = d.creator_id
      where d.workspace_id = ${scope.workspace.id} and ${teamVis} ${joinSql(
        where.map((w) => q`and ${w}`),
        " ",
      )}
      order by d.updated_at desc, d.id desc`,
  );
  return rows.map(toDocument);
}

export async function listDocuments(
  scope: WorkspaceScope,
  query: { q?: string; issue?: string; team?: string },
): Promise<DocumentOut[]> {
  const where: SqlFragment[] = [];
  const words = query.q?.trim();
  // Exactly the indexed expression (no other table in the statement has a title or content column).
  if (words) where.push(q`${raw(DOCUMENT_SEARCH_VECTOR)} @@ websearch_to_tsquery('english', ${words})`);
  if (query.issue) {
    const issue = await resolveIssue(scope, query.issue);
    where.push(
      q`exists (select 1 from document_issues fdi where fdi.document_id = d.id and fdi.issue_id = ${issue.id})`,
    );
  }
  if (query.team) {
    const team = await resolveTeam(scope, query.team);
    where.push(q`d.team_id = ${team.id}`);
  }
  return selectDocuments(scope, scope.em, where);
}

export async function readDocument(
  scope: WorkspaceScope,
  em: EntityManager,
  id: string,
): Promise<DocumentOut> {
  return findById(
    id,
    `No document ${id} in this workspace.`,
    async (id) => (await selectDocuments(scope, em, [q`d.id = ${id}`]))[0],
  );
}

export function getDocument(scope: WorkspaceScope, id: string): Promise<DocumentOut> {
  return readDocument(scope, scope.em, id);
}

/**
 * Locks a visible document's row for the rest of the transaction. The lock comes first, alone: a locking
 * statement joining the team would, after waiting for a concurrent move to another team, re-check the join
 * against the old team and miss the document.
 */
export function lockDocument(scope: WorkspaceScope, em: EntityManager, id: string) {
  return findById(id, `No document ${id} in this workspace.`, async (id) => {
    await holdInWorkspace(em, "documents", scope.workspace.id, [id], "update");
    const vis = visibleTeamCondition(scope, "t");
    return sqlOne<{ id: string; team_id: string; team_key: string; creator_id: string | null }>(
      em,
      q`select d.id, d.team_id, t.key as team_key, d.creator_id
         from documents d join teams t on t.id = d.team_id
        where d.id = ${id} and d.workspace_id = ${scope.workspace.id} and ${vis}`,
    );
  });
}

/**
 * Live-stream changes for issues whose document links changed (their page lists the documents), read in
 * one query.
 */
export async function issueChanges(em: EntityManager, issueIds: string[]): Promise<Change[]> {
  if (issueIds.length === 0) return [];
  const rows = await sql<{ id: string; identifier: string; team_id: string; team_key: string }>(
    em,
    q`select i.id, t.key || '-' || i.number as identifier, t.id as team_id, t.key as team_key
       from issues i join teams t on t.id = i.team_id where i.id = any(${issueIds}::uuid[])`,
  );
  return rows.map((k) => ({
    entity: "issue",
    action: "updated",
    id: k.id,
    identifier: k.identifier,
    teamKey: k.team_key,
    teamId: k.team_id,
  }));
}

/**
 * Links the document to exactly the issues `issueIds`; the issues whose link was added or removed (their
 * pages list the document).
 */
export async function relinkDocument(
  em: EntityManager,
  documentId: string,
  issueIds: string[],
): Promise<string[]> {
  const unlinked = await sql<{ issue_id: string }>(
    em,
    q`delete from document_issues where document_id = ${documentId} and not (issue_id = any(${issueIds}::uuid[]))
     returning issue_id`,
  );
  const linked = await sql<{ issue_id: string }>(
    em,
    q`insert into document_issues (document_id, issue_id)
     select ${documentId}, x from unnest(${issueIds}::uuid[]) x on conflict do nothing returning issue_id`,
  );
  return [...new Set([...unlinked, ...linked].map((r) => r.issue_id))];
}

/** The issues a document links. */
export async function linkedIssues(em: EntityManager, documentId: string): Promise<string[]> {
  const links = await sql<{ issue_id: string }>(
    em,
    q`select issue_id from document_issues where document_id = ${documentId}`,
  );
  return links.map((l) => l.issue_id);
}
