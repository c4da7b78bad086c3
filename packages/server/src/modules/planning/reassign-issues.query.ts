import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../../db/sql.js";
import { q, raw, type SqlFragment } from "../../db/sql-fragment.js";
import { type Change, issueRowChange } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { FINISHED_STATE_TYPES_SQL } from "../../rules/state-types.js";
import { type FieldChange, fieldChangedActivities, recordActivities } from "../activity/activity.query.js";

/**
 * Which issues move: those of a cycle (`open`: only those not finished, for the next cycle to take), or
 * those of a project (`outsideTeams`: only those whose team is not one of these).
 */
export type Reassigned =
  | { field: "cycle"; from: string; open?: true }
  | { field: "project"; from: string; outsideTeams?: string[] };

function reassignedWhere(which: Reassigned): SqlFragment {
  if (which.field === "cycle")
    return which.open
      ? q`i.cycle_id = ${which.from} and i.state_type not in ${raw(FINISHED_STATE_TYPES_SQL)}`
      : q`i.cycle_id = ${which.from}`;
  return which.outsideTeams
    ? q`i.project_id = ${which.from} and not (i.team_id = any(${which.outsideTeams}::uuid[]))`
    : q`i.project_id = ${which.from}`;
}

/**
 * Moves issues from one project or cycle to another, or to none: the project or cycle is deleted, the
 * issue's team left the project, or a new cycle takes the open issues of the previous one. Each issue's
 * activity records `change`; the answer is the issues' live-stream changes, for the caller to record with
 * its own.
 */
export async function reassignIssues(
  scope: WorkspaceScope,
  em: EntityManager,
  which: Reassigned,
  change: { from: FieldChange["from"]; to: ({ id: string } & Record<string, unknown>) | null },
): Promise<Change[]> {
  const field = which.field;
  const where = reassignedWhere(which);
  const moved = await sql<{ id: string; number: number; team_id: string; team_key: string }>(
    em,
    q`update issues i set ${raw(field)}_id = ${change.to?.id ?? null}, updated_at = now()
       from teams t
      where t.id = i.team_id and ${where}
      returning i.id, i.number, i.team_id, t.key as team_key`,
  );
  await recordActivities(
    em,
    fieldChangedActivities(
      scope.workspace.id,
      scope.caller.userId,
      moved.map((i) => i.id),
      field,
      change,
    ),
  );
  return moved.map(issueRowChange);
}
