import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../../db/sql.js";
import { q, raw, type SqlFragment } from "../../db/sql-fragment.js";
import { type Change, issueRowChange } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { type FieldChange, fieldChangedActivities, recordActivities } from "../activity/activity.query.js";

/**
 * Moves the issues `where` selects (on `issues i`) from one project or cycle to another, or to none: the
 * project or cycle is deleted, the issue's team left the project, or a new cycle takes the open issues of
 * the previous one. Each issue's activity records `change`; the answer is the issues' live-stream changes,
 * for the caller to record with its own.
 */
export async function reassignIssues(
  scope: WorkspaceScope,
  em: EntityManager,
  field: "project" | "cycle",
  where: SqlFragment,
  change: { from: FieldChange["from"]; to: ({ id: string } & Record<string, unknown>) | null },
): Promise<Change[]> {
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
