import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import { type Change, issueRowChange } from "../../events/record-change.query.js";
import { FINISHED_STATE_TYPES_SQL, isFinished } from "../../rules/state-types.js";

/**
 * The statements of a team's workflow states (the contract's createWorkflowState, updateWorkflowState and
 * deleteWorkflowState; workflow-state.service.ts decides). Every write first holds the team's row
 * (`lockTeamStates`), so two writes to one team's states apply one after the other.
 */

export type StateRow = components["schemas"]["WorkflowState"];

const STATE_COLUMNS = "s.id, s.name, s.type, s.color, s.position";

/** Locks the team's row for the transaction, then reads its states in position order. */
export async function lockTeamStates(em: EntityManager, teamId: string): Promise<StateRow[] | undefined> {
  const team = await sqlOne(em, q`select id from teams where id = ${teamId} for update`);
  if (!team) return undefined;
  return sql<StateRow>(
    em,
    q`select ${raw(STATE_COLUMNS)} from workflow_states s where s.team_id = ${teamId}
       order by s.position, s.name, s.id`,
  );
}

/** One state as the contract's WorkflowState. */
export async function readState(em: EntityManager, stateId: string): Promise<StateRow | undefined> {
  return sqlOne<StateRow>(em, q`select ${raw(STATE_COLUMNS)} from workflow_states s where s.id = ${stateId}`);
}

/**
 * Gives the states the positions 0, 1, 2, ... in the order of `ids` (every state of the team), and the
 * team's issues whose state moved their `state_position` (the `state` sort's key, db/functions/issue-sort-keys.ts).
 */
export async function renumberStates(em: EntityManager, teamId: string, ids: string[]): Promise<void> {
  const changed = await sql<{ id: string }>(
    em,
    q`update workflow_states s set position = (o.ord - 1)::int
        from unnest(${ids}::uuid[]) with ordinality as o(id, ord)
       where s.id = o.id and s.team_id = ${teamId} and s.position <> (o.ord - 1)::int
       returning s.id`,
  );
  if (changed.length === 0) return;
  await sql(
    em,
    q`update issues i set state_position = s.position
        from workflow_states s
       where s.id = i.state_id and i.team_id = ${teamId} and s.id = any(${changed.map((c) => c.id)}::uuid[])
         and i.state_position is distinct from s.position`,
  );
}

/** How many issues (archived ones too) are in the state. */
export async function stateIssueCount(em: EntityManager, stateId: string): Promise<number> {
  const row = await sqlOne<{ n: number }>(
    em,
    q`select count(*)::int as n from issues where state_id = ${stateId}`,
  );
  return row?.n ?? 0;
}

/**
 * Moves every issue of `from` to `to`, as `PATCH /issues/{identifier}` moves one: `state_type` follows,
 * `completed_at` is set on entering a finished type and cleared on leaving one, `updated_at` moves; the
 * triggers on `issues` keep the team's per-state counts, the sort keys, blockers and project counts. The
 * answer is the moved issues.
 */
export async function moveStateIssues(
  em: EntityManager,
  from: StateRow,
  to: StateRow,
): Promise<{ id: string; number: number; team_id: string; team_key: string }[]> {
  const completedAt = isFinished(to.type)
    ? `case when i.state_type in ${FINISHED_STATE_TYPES_SQL} then coalesce(i.completed_at, now()) else now() end`
    : "null";
  return sql(
    em,
    q`update issues i set state_id = ${to.id}, state_type = ${to.type}, completed_at = ${raw(completedAt)},
             updated_at = now()
        from teams t
       where t.id = i.team_id and i.state_id = ${from.id}
       returning i.id, i.number, i.team_id, t.key as team_key`,
  );
}

/**
 * The team's workflow rules that targeted `from`: retargeted to `to`, or deleted when `to` is null. The
 * answer is their `workflow` changes.
 */
export async function retargetRules(
  em: EntityManager,
  team: { id: string; key: string },
  fromId: string,
  toId: string | null,
): Promise<Change[]> {
  const rows = toId
    ? await sql<{ id: string }>(
        em,
        q`update workflow_rules set target_state_id = ${toId} where target_state_id = ${fromId} returning id`,
      )
    : await sql<{ id: string }>(
        em,
        q`delete from workflow_rules where target_state_id = ${fromId} returning id`,
      );
  return rows.map((r) => ({
    entity: "workflow",
    action: toId ? "updated" : "deleted",
    id: r.id,
    teamKey: team.key,
    teamId: team.id,
  }));
}

/**
 * Saved views' and view defaults' filters that name the state by name (`state`, with `team` this team's key
 * or id): renamed to `to`, or the `state` key removed when `to` is null. The answer is their changes.
 */
export async function rewriteStateFilters(
  em: EntityManager,
  workspaceId: string,
  team: { id: string; key: string },
  from: string,
  to: string | null,
): Promise<Change[]> {
  const changes: Change[] = [];
  for (const [table, entity] of [
    ["saved_views", "view"],
    ["view_defaults", "view_default"],
  ] as const) {
    const rows = await sql<{ id: string }>(
      em,
      q`update ${raw(table)} v
           set filters = case when ${to}::text is null then v.filters - 'state'
                              else jsonb_set(v.filters, '{state}', to_jsonb(${to}::text)) end,
               updated_at = now()
         where v.workspace_id = ${workspaceId}
           and jsonb_typeof(v.filters -> 'state') = 'string'
           and lower(v.filters ->> 'state') = lower(${from})
           and (upper(v.filters ->> 'team') = upper(${team.key}) or v.filters ->> 'team' = ${team.id}::text)
         returning v.id`,
    );
    for (const r of rows) changes.push({ entity, action: "updated", id: r.id });
  }
  return changes;
}

/** Deletes the state and its per-state count row (its issues have moved out). */
export async function deleteStateRow(em: EntityManager, teamId: string, stateId: string): Promise<void> {
  await sql(em, q`delete from workflow_states where id = ${stateId} and team_id = ${teamId}`);
  await sql(em, q`delete from team_state_counts where team_id = ${teamId} and state_id = ${stateId}`);
}

/** The moved issues' live-stream changes. */
export const movedIssueChanges = (
  rows: { id: string; number: number; team_id: string; team_key: string }[],
) => rows.map(issueRowChange);
