import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../../db/sql.js";
import type { Change } from "../../events/record-change.js";
import type { ActivityInput, TeamBrief } from "../activity/activity.service.js";

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
    `select i.id from issues i where i.id = any(?::uuid[]) and i.team_id <> ? order by i.id for update`,
    [r.issueIds, r.team.id],
  );
  if (toMove.length === 0) return { issues: [], changes: [], activity: [] };
  const counter = await sql<{ issue_counter: number }>(
    em,
    "update teams set issue_counter = issue_counter + ? where id = ? returning issue_counter",
    [toMove.length, r.team.id],
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
    `with src as (
       select i.id, i.number as old_number, ot.id as old_team_id, ot.key as old_key, ot.name as old_team_name,
              s.name as state_name, s.type as state_type, i.cycle_id is not null as had_cycle,
              (?::boolean and i.assignee_id is not null and not exists (
                 select 1 from memberships m where m.workspace_id = ? and m.user_id = i.assignee_id)) as clear_assignee,
              row_number() over (order by ot.key, i.number) as rn
         from issues i
         join teams ot on ot.id = i.team_id
         join workflow_states s on s.id = i.state_id
        where i.id = any(?::uuid[])
     ), mapped as (
       select src.*, ns.id as new_state_id, ns.type as new_state_type
         from src
         cross join lateral (
           select ts.id, ts.type from workflow_states ts
            where ts.team_id = ?
            order by (lower(ts.name) = lower(src.state_name)) desc, (ts.type = src.state_type) desc, ts.position
            limit 1
         ) ns
     )
     update issues i
        set team_id = ?, workspace_id = ?, number = ? + mapped.rn,
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
    [
      crossWorkspace,
      r.targetWorkspaceId,
      toMove.map((t) => t.id),
      r.team.id,
      r.team.id,
      r.targetWorkspaceId,
      base,
    ],
  );

  const ids = rows.map((row) => row.id);
  // Old identifiers keep resolving in the workspace the issues now live in. Across workspaces, the
  // redirects the issues already had come along; the source workspace keeps none (it no longer holds
  // the issues, and a redirect never crosses workspaces).
  if (crossWorkspace) {
    await sql(
      em,
      `insert into issue_redirects (id, workspace_id, team_key, number, issue_id, created_at)
       select gen_random_uuid(), ?, r.team_key, r.number, r.issue_id, r.created_at
         from issue_redirects r where r.issue_id = any(?::uuid[]) and r.workspace_id = ?
       on conflict (workspace_id, team_key, number) do nothing`,
      [r.targetWorkspaceId, ids, r.sourceWorkspaceId],
    );
    await sql(em, "delete from issue_redirects where issue_id = any(?::uuid[]) and workspace_id = ?", [
      ids,
      r.sourceWorkspaceId,
    ]);
  }
  await sql(
    em,
    `insert into issue_redirects (id, workspace_id, team_key, number, issue_id, created_at)
     values ${rows.map(() => "(gen_random_uuid(), ?, ?, ?, ?, now())").join(", ")}
     on conflict (workspace_id, team_key, number) do update set issue_id = excluded.issue_id`,
    rows.flatMap((row) => [r.targetWorkspaceId, row.old_key, row.old_number, row.id]),
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
