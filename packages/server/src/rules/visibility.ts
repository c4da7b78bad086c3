import type { SqlFragment } from "../db/sql-fragment.js";
import type { MemberRole } from "../modules/workspaces/workspace.entity.js";

/**
 * Who sees what (openapi.yaml, "Authentication": members and admins see every team's work except other
 * users' personal spaces; guests see only the teams they belong to; anything the caller cannot see answers
 * 404 `not_found`, exactly as if it did not exist). Everything a team holds (issues, cycles, documents,
 * workflow rules, ...) is seen with its team; projects and initiatives through their teams; change events
 * by the same rule, row by row. The rule lives here in each form its readers need: SQL conditions for the
 * statements, and a predicate for the event stream.
 */

/** Whoever a condition is for: the caller, with their role in the workspace acted in. */
export interface Viewer {
  caller: { userId: string };
  workspace: { id: string; role: MemberRole };
}

// ---- Teams ------------------------------------------------------------------------------------------

/** SQL condition on a teams alias: the viewer sees the team. */
export function visibleTeamCondition(viewer: Viewer, alias = "t"): SqlFragment {
  if (viewer.workspace.role === "guest") {
    return {
      sql: `exists (select 1 from team_members vtm where vtm.team_id = ${alias}.id and vtm.user_id = ?)`,
      params: [viewer.caller.userId],
    };
  }
  return { sql: `(not ${alias}.personal or ${alias}.owner_id = ?)`, params: [viewer.caller.userId] };
}

/**
 * SQL condition on a teams alias `team`: the workspace member `user` (a users alias), whose membership is
 * `membership` (a memberships alias), sees the team. For someone other than the caller: who may be
 * assigned a team's issues, who a page offers as assignees.
 */
export function memberSeesTeamSql(team: string, user: string, membership: string): string {
  return `case when ${team}.personal then ${team}.owner_id is not distinct from ${user}.id
                    else ${membership}.role <> 'guest'
                         or exists (select 1 from team_members tm where tm.team_id = ${team}.id and tm.user_id = ${user}.id)
               end`;
}

/**
 * The team ids that decide which teams the viewer sees, as an SQL array evaluated once per statement:
 * for guests the teams they belong to (`visible`), for members and admins other people's personal spaces
 * (`hidden`, usually none).
 */
export function teamVisibilityIds(viewer: Viewer): SqlFragment & { kind: "visible" | "hidden" } {
  if (viewer.workspace.role === "guest") {
    return {
      kind: "visible",
      sql: "array(select vtm.team_id from team_members vtm where vtm.user_id = ?)",
      params: [viewer.caller.userId],
    };
  }
  return {
    kind: "hidden",
    sql: `array(select ht.id from teams ht
                  where ht.workspace_id = ? and ht.personal and ht.owner_id is distinct from ?)`,
    params: [viewer.workspace.id, viewer.caller.userId],
  };
}

/**
 * The same visibility as {@link visibleTeamCondition}, as a condition on a `team_id` column of a big table
 * (issues). Guests: the team is one of theirs (selective, so an index can use it). Members and admins: the
 * team is not someone else's personal space, written as an exclusion over the (usually empty) list of such
 * spaces so it never competes with the indexes that serve the rest of the query.
 */
export function visibleTeamIdCondition(viewer: Viewer, column: string): SqlFragment {
  const ids = teamVisibilityIds(viewer);
  return { sql: `${column} ${ids.kind === "visible" ? "= any" : "<> all"}(${ids.sql})`, params: ids.params };
}

// ---- Projects and initiatives ------------------------------------------------------------------------

/**
 * SQL condition (on a projects alias) for the projects the viewer may see: those on at least one team
 * they see, those they were added to directly, and (members and admins) team-less detached projects.
 * Reads the row's `team_ids` (kept equal to `project_teams` by triggers), so it costs array operators per
 * project rather than a lookup.
 */
export function visibleProjectCondition(viewer: Viewer, alias = "p"): SqlFragment {
  const member = `exists (select 1 from project_members vpm where vpm.project_id = ${alias}.id and vpm.user_id = ?)`;
  const ids = teamVisibilityIds(viewer);
  const onVisibleTeam =
    ids.kind === "visible"
      ? `${alias}.team_ids && ${ids.sql}`
      : `cardinality(${alias}.team_ids) = 0 or not ${alias}.team_ids <@ ${ids.sql}`;
  return { sql: `(${onVisibleTeam} or ${member})`, params: [...ids.params, viewer.caller.userId] };
}

/**
 * SQL condition (on an initiatives alias) for what the viewer may see: members and admins see every
 * initiative of the workspace; guests those holding at least one project they may see.
 */
export function visibleInitiativeCondition(viewer: Viewer, alias = "i"): SqlFragment {
  if (viewer.workspace.role !== "guest") return { sql: "true", params: [] };
  const vis = visibleProjectCondition(viewer, "vp");
  return {
    sql: `exists (select 1 from projects vp where vp.initiative_id = ${alias}.id and ${vis.sql})`,
    params: vis.params,
  };
}

// ---- Change events ------------------------------------------------------------------------------------

/** What one event stream's key may see, refreshed when memberships or teams change. */
export interface StreamAccess {
  userId: string;
  keyId: string;
  role: MemberRole;
  /** Teams the user belongs to in the workspace (what guests may see). */
  teams: Set<string>;
}

/** A change as the stream's rule reads it: its entity, its team, and the team's personal-space facts. */
export interface VisibleChange {
  entity: string;
  entityId: string;
  teamId: string | null;
  /** The team's `personal` flag; null when the row has no team or the team is gone. */
  personal: boolean | null;
  ownerId: string | null;
}

/**
 * Team-less changes a guest may see: the workspace itself, its member list and its labels, which guests
 * read too. Projects, initiatives, documents, status updates, views, view defaults and invites without a
 * team stay hidden from guests (they may concern teams the guest is not in).
 */
const GUEST_WORKSPACE_ENTITIES = new Set(["workspace", "member", "label"]);

/** Members and admins: every team but other people's personal spaces, and every team-less change. */
export const seesEveryTeam = (viewer: { role: MemberRole }): boolean => viewer.role !== "guest";

/**
 * Whether a change reaches a stream, by the rule of who sees a team (the contract's `streamEvents`):
 * nobody sees other people's personal spaces; guests see changes of the teams they belong to and the
 * team-less entities above; members and admins see everything else. A change to one's own membership
 * always reaches the member it concerns, so a guest hears that they joined or left a team.
 */
export function seesChange(access: StreamAccess, row: VisibleChange): boolean {
  // A notification (db/functions/issue-notifications.ts) is its recipient's alone: `entityId` names them.
  if (row.entity === "notification") return row.entityId === access.userId;
  if (row.teamId && row.personal && row.ownerId !== access.userId) return false;
  if (row.entity === "member" && row.entityId === access.userId) return true;
  if (seesEveryTeam(access)) return true;
  if (row.teamId) return access.teams.has(row.teamId);
  return GUEST_WORKSPACE_ENTITIES.has(row.entity);
}
