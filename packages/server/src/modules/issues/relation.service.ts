import { randomUUID } from "node:crypto";
import type { components } from "@tracker/sdk/schema";
import { sql, sqlOne } from "../../db/sql.js";
import { recordChanges } from "../../events/record-change.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, Invalid, NotFound } from "../../http/problem.js";
import { isUuid, resolveIssue, visibleTeamCondition } from "../shared/resolve.js";
import type { StateType } from "../teams/team.entity.js";
import { inTransaction } from "./in-transaction.js";

export type RelationOut = components["schemas"]["IssueRelation"];
export type RelatedIssueOut = components["schemas"]["RelatedIssue"];
type RelationType = components["schemas"]["IssueRelationType"];
type RelationSide = components["schemas"]["IssueRelationSide"];

/**
 * Relations are stored once, from the source issue's side (`A blocks B`, `A duplicates B`, `A related B`).
 * Reads show each from the reading issue's side: B sees `blocked_by A`, `duplicated_by A`, `related A`.
 */
const REVERSE_SIDE = `case r.type when 'blocks' then 'blocked_by' when 'duplicate' then 'duplicated_by' else r.type end`;

interface RelationRow {
  id: string;
  side: RelationSide;
  other_id: string;
  other_identifier: string;
  other_title: string;
  state_id: string;
  state_name: string;
  state_type: StateType;
}

function relationFromRow(r: RelationRow): RelationOut {
  return {
    id: r.id,
    type: r.side,
    issue: {
      id: r.other_id,
      identifier: r.other_identifier,
      title: r.other_title,
      state: { id: r.state_id, name: r.state_name, type: r.state_type },
    },
  };
}

/**
 * The relations of one issue from its side, with the other issue; relations to issues the caller cannot
 * see are left out. One query. `where` narrows further (e.g. to one relation id).
 */
async function queryRelations(
  scope: WorkspaceScope,
  issueId: string,
  extra: { sql: string; params: unknown[] } = { sql: "", params: [] },
): Promise<RelationOut[]> {
  const vis = visibleTeamCondition(scope, "ot");
  const rows = await sql<RelationRow>(
    scope.em,
    `select r.id,
            case when r.issue_id = ? then r.type else ${REVERSE_SIDE} end as side,
            o.id as other_id, ot.key || '-' || o.number as other_identifier, o.title as other_title,
            os.id as state_id, os.name as state_name, os.type as state_type
       from issue_relations r
       join issues o on o.id = case when r.issue_id = ? then r.related_issue_id else r.issue_id end
       join teams ot on ot.id = o.team_id
       join workflow_states os on os.id = o.state_id
      where (r.issue_id = ? or r.related_issue_id = ?) and ${vis.sql} ${extra.sql}
      order by r.created_at, r.id`,
    [issueId, issueId, issueId, issueId, ...vis.params, ...extra.params],
  );
  return rows.map(relationFromRow);
}

/** An issue's relations from its side (for getIssue, page-data and listIssueRelations). */
export function relationsOf(scope: WorkspaceScope, issueId: string): Promise<RelationOut[]> {
  return queryRelations(scope, issueId);
}

/** The open issues (not completed or canceled) that block this one and that the caller can see. */
export async function openBlockersOf(scope: WorkspaceScope, issueId: string): Promise<RelatedIssueOut[]> {
  const vis = visibleTeamCondition(scope, "ot");
  return sql<RelatedIssueOut>(
    scope.em,
    `select o.id, ot.key || '-' || o.number as identifier, o.title,
            json_build_object('id', os.id, 'name', os.name, 'type', os.type) as state
       from issue_relations r
       join issues o on o.id = r.issue_id
       join teams ot on ot.id = o.team_id
       join workflow_states os on os.id = o.state_id
      where r.related_issue_id = ? and r.type = 'blocks'
        and o.state_type not in ('completed', 'canceled') and ${vis.sql}
      order by r.created_at, r.id`,
    [issueId, ...vis.params],
  );
}

export async function listRelations(scope: WorkspaceScope, ref: string): Promise<RelationOut[]> {
  const issue = await resolveIssue(scope, ref);
  return relationsOf(scope, issue.id);
}

/**
 * Relates the path issue to `otherRef`. The same type between the same pair in either direction is a
 * conflict: `related` is symmetric, and mutual blocking or mutual duplicates make no sense. Both issue
 * rows are locked (in id order) so two concurrent requests cannot both pass the check.
 */
export async function createRelation(
  scope: WorkspaceScope,
  ref: string,
  otherRef: string,
  type: RelationType,
): Promise<RelationOut> {
  const id = await inTransaction(scope, async (tx) => {
    const issue = await resolveIssue(tx, ref);
    const other = await resolveIssue(tx, otherRef);
    if (issue.id === other.id)
      throw new Invalid("An issue cannot be related to itself.", [
        { path: "body.issue", message: "must name another issue" },
      ]);
    await sql(tx.em, "select id from issues where id in (?, ?) order by id for update", [issue.id, other.id]);
    const existing = await sqlOne<{ forward: boolean }>(
      tx.em,
      `select issue_id = ? as forward from issue_relations
        where type = ? and ((issue_id = ? and related_issue_id = ?) or (issue_id = ? and related_issue_id = ?))
        limit 1`,
      [issue.id, type, issue.id, other.id, other.id, issue.id],
    );
    if (existing) {
      const what = existing.forward
        ? `${issue.identifier} already ${type === "related" ? "is related to" : type === "blocks" ? "blocks" : "duplicates"} ${other.identifier}.`
        : type === "related"
          ? `${other.identifier} already is related to ${issue.identifier}.`
          : `${other.identifier} already ${type === "blocks" ? "blocks" : "duplicates"} ${issue.identifier}; remove that relation first.`;
      throw new Conflict("conflict", what);
    }
    const relationId = randomUUID();
    await sql(
      tx.em,
      `insert into issue_relations (id, workspace_id, type, issue_id, related_issue_id, creator_id, created_at)
       values (?, ?, ?, ?, ?, ?, now())`,
      [relationId, tx.workspace.id, type, issue.id, other.id, tx.caller.userId],
    );
    await recordChanges(tx.em, tx.workspace.id, [
      {
        entity: "issue_relation",
        action: "created",
        id: relationId,
        identifier: issue.identifier,
        teamKey: issue.teamKey,
        teamId: issue.teamId,
      },
    ]);
    return { relationId, issueId: issue.id };
  });
  const [relation] = await queryRelations(scope, id.issueId, {
    sql: "and r.id = ?",
    params: [id.relationId],
  });
  return relation!;
}

/** Deletes a relation involving the path issue (on either side); anything else is 404. */
export async function deleteRelation(scope: WorkspaceScope, ref: string, relationId: string): Promise<void> {
  await inTransaction(scope, async (tx) => {
    const issue = await resolveIssue(tx, ref);
    const deleted = isUuid(relationId)
      ? await sqlOne<{ id: string }>(
          tx.em,
          `delete from issue_relations where id = ? and (issue_id = ? or related_issue_id = ?) returning id`,
          [relationId, issue.id, issue.id],
        )
      : undefined;
    if (!deleted) throw new NotFound(`No relation "${relationId}" on ${issue.identifier}.`);
    await recordChanges(tx.em, tx.workspace.id, [
      {
        entity: "issue_relation",
        action: "deleted",
        id: deleted.id,
        identifier: issue.identifier,
        teamKey: issue.teamKey,
        teamId: issue.teamId,
      },
    ]);
  });
}
