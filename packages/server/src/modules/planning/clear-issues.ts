import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../../db/sql.js";
import type { SqlFragment } from "../../db/sql-fragment.js";
import { type Change, issueRowChange } from "../../events/record-change.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { type FieldChange, fieldChangedActivities, recordActivities } from "../activity/activity.service.js";

/**
 * Takes a project or a cycle off the issues `where` selects (on `issues i`): the project or cycle is
 * deleted, or the issue's team left the project. Each issue's activity records the change from `from` to
 * nothing; the answer is the issues' live-stream changes, for the caller to record with its own.
 */
export async function clearFromIssues(
  scope: WorkspaceScope,
  em: EntityManager,
  field: "project" | "cycle",
  where: SqlFragment,
  from: FieldChange["from"],
): Promise<Change[]> {
  const cleared = await sql<{ id: string; number: number; team_id: string; team_key: string }>(
    em,
    `update issues i set ${field}_id = null, updated_at = now()
       from teams t
      where t.id = i.team_id and ${where.sql}
      returning i.id, i.number, i.team_id, t.key as team_key`,
    where.params,
  );
  await recordActivities(
    em,
    fieldChangedActivities(
      scope.workspace.id,
      scope.caller.userId,
      cleared.map((i) => i.id),
      field,
      { from, to: null },
    ),
  );
  return cleared.map(issueRowChange);
}
