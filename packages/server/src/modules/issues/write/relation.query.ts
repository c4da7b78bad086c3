import { randomUUID } from "node:crypto";
import type { components } from "@tracker/sdk/schema";
import { lockIssues } from "../../../db/locks.js";
import { sql, sqlOne } from "../../../db/sql.js";
import { q, raw, type SqlFragment } from "../../../db/sql-fragment.js";
import { inTransaction } from "../../../db/transaction.js";
import { recordChanges } from "../../../events/record-change.query.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { Conflict, Invalid } from "../../../http/problem.js";
import { FINISHED_STATE_TYPES_SQL } from "../../../rules/state-types.js";
import { visibleTeamCondition } from "../../../rules/visibility.js";
import { recordActivities, relationActivities } from "../../activity/activity.query.js";
import { findById, resolveIssue } from "../../shared/resolve.query.js";

export type RelationOut = components["schemas"]["IssueRelation"];
export type RelatedIssueOut = components["schemas"]["RelatedIssue"];
type RelationType = components["schemas"]["IssueRelationType"];

/**
 * Relations are stored once, from the source issue's side (`A blocks B`, `A duplicates B`, `A related B`).
 * Reads show each from the reading issue's side: B sees `blocked_by A`, `duplicated_by A`, `related A`.
 */
const REVERSE_SIDE = `case r.type when 'blocks' then 'blocked_by' when 'duplicate' then 'duplicated_by' else r.type end`;

/**
 * FROM and WHERE over the relations of the issue whose id is the SQL expression `issueId` (a column of the
 * enclosing query, or a parameter's), with the other issue `o`, its team `ot` and state `os`; relations to
 * issues the caller cannot see are left out.
 */
function relationsFrom(scope: WorkspaceScope, issueId: string): SqlFragment {
  const vis = visibleTeamCondition(scope, "ot");
  return q`issue_relations r
       join issues o on o.id = case when r.issue_id = ${raw(issueId)} then r.related_issue_id else r.issue_id end
       join teams ot on ot.id = o.team_id
       join workflow_states os on os.id = o.state_id
      where (r.issue_id = ${raw(issueId)} or r.related_issue_id = ${raw(issueId)}) and ${vis}`;
}

/** One contract `IssueRelation` as JSON, from the side of the issue `issueId`, over {@link relationsFrom}. */
const relationJson = (issueId: string) => `json_build_object(
    'id', r.id,
    'type', case when r.issue_id = ${issueId} then r.type else ${REVERSE_SIDE} end,
    'issue', json_build_object('id', o.id, 'identifier', ot.key || '-' || o.number, 'title', o.title,
                               'state', json_build_object('id', os.id, 'name', os.name, 'type', os.type)))`;

const RELATION_ORDER = "r.created_at, r.id";

/**
 * A JSON array of the relations of the issue whose id is the SQL expression `issueId`, from its side
 * (getIssue, page-data and listIssueRelations show the same), to embed in the issue's own statement.
 */
export function relationsJsonSql(scope: WorkspaceScope, issueId: string): SqlFragment {
  return q`coalesce((select json_agg(${raw(relationJson(issueId))} order by ${raw(RELATION_ORDER)})
                       from ${relationsFrom(scope, issueId)}), '[]'::json)`;
}

/**
 * A JSON array of the open issues (not completed or canceled) that block the issue whose id is the SQL
 * expression `issueId` and that the caller can see, as `RelatedIssue`s.
 */
export function openBlockersJsonSql(scope: WorkspaceScope, issueId: string): SqlFragment {
  const vis = visibleTeamCondition(scope, "ot");
  return q`coalesce((select json_agg(json_build_object(
                        'id', o.id, 'identifier', ot.key || '-' || o.number, 'title', o.title,
                        'state', json_build_object('id', os.id, 'name', os.name, 'type', os.type))
                      order by ${raw(RELATION_ORDER)})
       from issue_relations r
       join issues o on o.id = r.issue_id
       join teams ot on ot.id = o.team_id
       join workflow_states os on os.id = o.state_id
      where r.related_issue_id = ${raw(issueId)} and r.type = 'blocks'
        and o.state_type not in ${raw(FINISHED_STATE_TYPES_SQL)} and ${vis}), '[]'::json)`;
}

/**
 * The relations of one issue from its side, in one query. `extra` narrows further (e.g. to one relation).
 */
async function queryRelations(
  scope: WorkspaceScope,
  issueId: string,
  extra: SqlFragment = raw(""),
): Promise<RelationOut[]> {
  const query = q`select ${raw(relationJson("x.id"))} as relation
       from (select ${issueId}::uuid as id) x cross join ${relationsFrom(scope, "x.id")} ${extra}
      order by ${raw(RELATION_ORDER)}`;
  const rows = await sql<{ relation: RelationOut }>(scope.em, query);
  return rows.map((r) => r.relation);
}

export async function listRelations(scope: WorkspaceScope, ref: string): Promise<RelationOut[]> {
  const issue = await resolveIssue(scope, ref);
  return queryRelations(scope, issue.id);
}

/**
 * Records `relation_added` or `relation_removed` on both issues of a relation (`sourceId <type> targetId`),
 * in the caller's transaction, for each issue's history.
 */
async function recordRelationActivity(
  tx: WorkspaceScope,
  kind: "relation_added" | "relation_removed",
  type: string,
  sourceId: string,
  targetId: string,
): Promise<void> {
  const rows = await sql<{ id: string; identifier: string; title: string }>(
    tx.em,
    q`select i.id, t.key || '-' || i.number as identifier, i.title from issues i join teams t on t.id = i.team_id
       where i.id in (${sourceId}, ${targetId}) and i.workspace_id = ${tx.workspace.id}`,
  );
  const source = rows.find((r) => r.id === sourceId);
  const target = rows.find((r) => r.id === targetId);
  if (!source || !target) return;
  await recordActivities(
    tx.em,
    relationActivities(tx.workspace.id, tx.caller.userId, kind, type, source, target),
  );
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
        { path: "/body/issue", message: "must name another issue" },
      ]);
    await lockIssues(tx.em, tx.workspace.id, [issue, other]);
    const existing = await sqlOne<{ forward: boolean }>(
      tx.em,
      q`select issue_id = ${issue.id} as forward from issue_relations
        where type = ${type} and ((issue_id = ${issue.id} and related_issue_id = ${other.id}) or (issue_id = ${other.id} and related_issue_id = ${issue.id}))
        limit 1`,
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
      q`insert into issue_relations (id, workspace_id, type, issue_id, related_issue_id, creator_id, created_at)
       values (${relationId}, ${tx.workspace.id}, ${type}, ${issue.id}, ${other.id}, ${tx.caller.userId}, now())`,
    );
    await recordRelationActivity(tx, "relation_added", type, issue.id, other.id);
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
  const [relation] = await queryRelations(scope, id.issueId, q`and r.id = ${id.relationId}`);
  return relation!;
}

/** Deletes a relation involving the path issue (on either side); anything else is 404. */
export async function deleteRelation(scope: WorkspaceScope, ref: string, relationId: string): Promise<void> {
  await inTransaction(scope, async (tx) => {
    const issue = await resolveIssue(tx, ref);
    await lockIssues(tx.em, tx.workspace.id, [issue]);
    const deleted = await findById(relationId, `No relation "${relationId}" on ${issue.identifier}.`, (id) =>
      sqlOne<{ id: string; type: string; issue_id: string; related_issue_id: string }>(
        tx.em,
        q`delete from issue_relations where id = ${id} and (issue_id = ${issue.id} or related_issue_id = ${issue.id})
          returning id, type, issue_id, related_issue_id`,
      ),
    );
    await recordRelationActivity(
      tx,
      "relation_removed",
      deleted.type,
      deleted.issue_id,
      deleted.related_issue_id,
    );
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
