import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../../db/sql.js";
import { joinSql, q } from "../../db/sql-fragment.js";
import type { Change } from "../../events/record-change.query.js";
import type { ActivityInput, TeamBrief } from "../activity/activity.query.js";

export interface RelocatedIssue {
  id: string;
  from: { identifier: string; team: TeamBrief };
  to: { identifier: string; team: TeamBrief };
  droppedCycle: boolean;
  clearedAssignee: boolean;
}

/** A change to record in one workspace's stream. */
export interface WorkspaceChange {
  workspaceId: string;
  change: Change;
}

export interface Relocation {
  issueIds: string[];
  team: TeamBrief;
  sourceWorkspaceId: string;
  targetWorkspaceId: string;
  actorId: string;
}

/**
 * Moves issues into `team` (of the same or another workspace), as `POST /issues/move` does: each is
 * renumbered as the target team's next number (the counter is bumped under the team's row lock), takes
 * the target state with the same name, else the first of the same type, else the first state; loses its
 * cycle; and keeps its old identifier as a redirect in the target workspace. Across workspaces an
 * assignee who is not a member of the target workspace is cleared. Issues already in `team` are left
 * alone. Call inside the caller's transaction; the caller records the changes and activity it returns.
 */
export async function relocateIssues(
  em: EntityManager,
  r: Relocation,
): Promise<{ issues: RelocatedIssue[]; changes: WorkspaceChange[]; activity: ActivityInput[] }> {
  if (r.issueIds.length === 0) return { issues: [], changes: [], activity: [] };
  const crossWorkspace = r.sourceWorkspaceId !== r.targetWorkspaceId;
  const toMove = await sql<{ id: string }>(
    em,
    q`select i.id from issues i where i.id = any(${r.issueIds}::uuid[]) and i.team_id <> ${r.team.id} order by i.id for update`,
  );
  if (toMove.length === 0) return { issues: [], changes: [], activity: [] };
  const counter = await sql<{ issue_counter: number }>(
    em,
    q`update teams set issue_counter = issue_counter + ${toMove.length} where id = ${r.team.id} returning issue_counter`,
  );
  const base = counter[0]!.issue_counter - toMove.length;

  const rows = await sql<{
    id: string;
    old_key: string;
    old_number: number;
    old_team_id: string;
    old_team_name: string;
    number: number;
    had_cycle: boolean;
    cleared_assignee: boolean;
  }>(
    em,
    q`with src as (
       select i.id, i.number as old_number, ot.id as old_team_id, ot.key as old_key, ot.name as old_team_name,
              s.name as state_name, s.type as state_type, i.cycle_id is not null as had_cycle,
              (${crossWorkspace}::boolean and i.assignee_id is not null and not exists (
                 select 1 from memberships m where m.workspace_id = ${r.targetWorkspaceId} and m.user_id = i.assignee_id)) as clear_assignee,
              row_number() over (order by ot.key, i.number) as rn
         from issues i
         join teams ot on ot.id = i.team_id
         join workflow_states s on s.id = i.state_id
        where i.id = any(${toMove.map((t) => t.id)}::uuid[])
     ), mapped as (
       select src.*, ns.id as new_state_id, ns.type as new_state_type
         from src
         cross join lateral (
           select ts.id, ts.type from workflow_states ts
            where ts.team_id = ${r.team.id}
            order by (lower(ts.name) = lower(src.state_name)) desc, (ts.type = src.state_type) desc, ts.position
            limit 1
         ) ns
     )
     update issues i
        set team_id = ${r.team.id}, workspace_id = ${r.targetWorkspaceId}, number = ${base} + mapped.rn,
            state_id = mapped.new_state_id, state_type = mapped.new_state_type,
            completed_at = case when mapped.new_state_type = mapped.state_type then i.completed_at
                                when mapped.new_state_type = 'completed' then now() else null end,
            cycle_id = null,
            assignee_id = case when mapped.clear_assignee then null else i.assignee_id end,
            updated_at = now()
       from mapped
      where mapped.id = i.id
      returning i.id, mapped.old_key, mapped.old_number, mapped.old_team_id, mapped.old_team_name, i.number,
                mapped.had_cycle, mapped.clear_assignee as cleared_assignee`,
  );

  const ids = rows.map((row) => row.id);
  // Old identifiers keep resolving in the workspace the issues now live in. Across workspaces, the
  // redirects the issues already had come along; the source workspace keeps none (it no longer holds
  // the issues, and a redirect never crosses workspaces).
  if (crossWorkspace) {
    await sql(
      em,
      q`insert into issue_redirects (id, workspace_id, team_key, number, issue_id, created_at)
       select gen_random_uuid(), ${r.targetWorkspaceId}, r.team_key, r.number, r.issue_id, r.created_at
         from issue_redirects r where r.issue_id = any(${ids}::uuid[]) and r.workspace_id = ${r.sourceWorkspaceId}
       on conflict (workspace_id, team_key, number) do nothing`,
    );
    await sql(
      em,
      q`delete from issue_redirects where issue_id = any(${ids}::uuid[]) and workspace_id = ${r.sourceWorkspaceId}`,
    );
  }
  await sql(
    em,
    q`insert into issue_redirects (id, workspace_id, team_key, number, issue_id, created_at)
     values ${joinSql(
       rows.map(
         (row) =>
           q`(gen_random_uuid(), ${r.targetWorkspaceId}, ${row.old_key}, ${row.old_number}, ${row.id}, now())`,
       ),
       ", ",
     )}
     on conflict (workspace_id, team_key, number) do update set issue_id = excluded.issue_id`,
  );

  const issues: RelocatedIssue[] = rows.map((row) => ({
    id: row.id,
    from: {
      identifier: `${row.old_key}-${row.old_number}`,
      team: { id: row.old_team_id, key: row.old_key, name: row.old_team_name },
    },
    to: { identifier: `${r.team.key}-${row.number}`, team: r.team },
    droppedCycle: row.had_cycle,
    clearedAssignee: row.cleared_assignee,
  }));
  issues.sort((a, b) => a.to.identifier.localeCompare(b.to.identifier, "en", { numeric: true }));
  const activity: ActivityInput[] = issues.map((i) => ({
    workspaceId: r.targetWorkspaceId,
    issueId: i.id,
    actorId: r.actorId,
    type: "issue_moved",
    payload: { from: i.from, to: i.to },
  }));
  /** Changes per workspace: across workspaces the source sees a deletion and the target a creation. */
  const changes = issues.flatMap((i): WorkspaceChange[] =>
    crossWorkspace
      ? [
          {
            workspaceId: r.sourceWorkspaceId,
            change: {
              entity: "issue",
              action: "deleted",
              id: i.id,
              identifier: i.from.identifier,
              teamKey: i.from.team.key,
              teamId: i.from.team.id,
            },
          },
          {
            workspaceId: r.targetWorkspaceId,
            change: {
              entity: "issue",
              action: "created",
              id: i.id,
              identifier: i.to.identifier,
              teamKey: r.team.key,
              teamId: r.team.id,
            },
          },
        ]
      : [
          {
            workspaceId: r.targetWorkspaceId,
            change: {
              entity: "issue",
              action: "updated",
              id: i.id,
              identifier: i.to.identifier,
              teamKey: r.team.key,
              teamId: r.team.id,
            },
          },
        ],
  );
  return { issues, changes, activity };
}
