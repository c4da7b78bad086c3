import { randomUUID } from "node:crypto";
import type { components } from "@tracker/sdk/schema";
import { lockIssues } from "../../../db/locks.js";
import { sql, sqlOne } from "../../../db/sql.js";
import { q, raw } from "../../../db/sql-fragment.js";
import { inTransaction } from "../../../db/transaction.js";
import { recordChanges } from "../../../events/record-change.query.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { NotFound } from "../../../http/problem.js";
import type { StateType } from "../../../rules/state-types.js";
import { FINISHED_STATE_TYPES_SQL } from "../../../rules/state-types.js";
import { type ActivityInput, recordActivities } from "../../activity/activity.query.js";
import { resolveIssues, resolveTeam } from "../../shared/resolve.query.js";

export type MovedIssueOut = components["schemas"]["MovedIssue"];

interface MovePlanRow {
  id: string;
  number: number;
  from_team_id: string;
  from_team_key: string;
  from_team_name: string;
  had_cycle: boolean;
  clear_project: boolean;
  new_state_id: string;
  new_state_type: StateType;
}

/**
 * Moves issues to another team, all or nothing: every identifier is resolved (404 for any the caller
 * cannot see) before anything is written, and everything happens in one transaction. Per moved issue:
 * the next number of the target team (one counter bump for the batch, under the team row's lock), a
 * redirect from the old identifier, the target state with the same name else the first of the same type
 * (else the team's first state), cycle dropped, project cleared unless it includes the target team.
 * Sub-issues stay where they are and keep their parent. Issues already in the target team are reported
 * unchanged (`from` equals `to`).
 */
export async function moveIssues(
  scope: WorkspaceScope,
  identifiers: string[],
  teamRef: string,
): Promise<MovedIssueOut[]> {
  return inTransaction(scope, async (tx) => {
    const target = await resolveTeam(tx, teamRef);
    // One query for the whole batch; any identifier that does not resolve is 404 before anything is written.
    const keys = await resolveIssues(tx, identifiers);

    const ids = [...new Set(keys.map((k) => k.id))];
    // Locks the issues (in id order, like every other multi-issue writer), then plans each move from the
    // rows as they are once locked, so a concurrent move of the same issue cannot slip in between. Two
    // statements: a locking statement that joins other tables re-checks its joins against the old rows
    // when it waits for a concurrent change, and drops an issue that moved meanwhile.
    await lockIssues(tx.em, tx.workspace.id, keys);
    // And their projects, so whether each includes the target team cannot change before this commits.
    await sql(
      tx.em,
      q`select id from projects where id in (select project_id from issues where id = any(${ids}::uuid[])) order by id for share`,
    );
    const plan = await sql<MovePlanRow>(
      tx.em,
      q`select i.id, i.number, t.id as from_team_id, t.key as from_team_key, t.name as from_team_name,
              i.cycle_id is not null as had_cycle,
              (i.project_id is not null and not exists (
                 select 1 from project_teams pt where pt.project_id = i.project_id and pt.team_id = ${target.id})) as clear_project,
              ns.id as new_state_id, ns.type as new_state_type
         from issues i
         join teams t on t.id = i.team_id
         join workflow_states s on s.id = i.state_id
         cross join lateral (
           select ws.id, ws.type from workflow_states ws where ws.team_id = ${target.id}
            order by lower(ws.name) = lower(s.name) desc, ws.type = s.type desc, ws.position, ws.id
            limit 1) ns
        where i.id = any(${ids}::uuid[])`,
    );
    // Every issue is locked, so a missing plan row means the target team (and its states) was just deleted.
    if (plan.length < ids.length) throw new NotFound(`No team "${teamRef}" in this workspace.`);
    const byId = new Map(plan.map((p) => [p.id, p]));
    // The moving issues get consecutive numbers in the order they were named.
    const moving = ids.map((id) => byId.get(id)!).filter((p) => p.from_team_id !== target.id);
    // Already in the target team (perhaps moved there by a concurrent request): reported as it is now.
    const unchanged = (id: string): MovedIssueOut => {
      const p = byId.get(id)!;
      const identifier = `${p.from_team_key}-${p.number}`;
      return { id, from: identifier, to: identifier, droppedCycle: false, clearedProject: false };
    };
    if (moving.length === 0) return keys.map((k) => unchanged(k.id));
    const counter = await sqlOne<{ issue_counter: number }>(
      tx.em,
      q`update teams set issue_counter = issue_counter + ${moving.length} where id = ${target.id} returning issue_counter`,
    );
    // Deleted since it was resolved (its delete waited for nothing we hold): as if it never existed.
    if (!counter) throw new NotFound(`No team "${teamRef}" in this workspace.`);
    const first = counter.issue_counter - moving.length + 1;
    const newNumber = new Map(moving.map((p, i) => [p.id, first + i]));

    await sql(
      tx.em,
      q`update issues i
          set team_id = ${target.id}, number = v.number, state_id = v.state_id, state_type = v.state_type,
              cycle_id = null,
              project_id = case when v.clear_project then null else i.project_id end,
              completed_at = case
                when v.state_type not in ${raw(FINISHED_STATE_TYPES_SQL)} then null
                when i.state_type = v.state_type then i.completed_at
                else now() end,
              updated_at = now()
         from unnest(${moving.map((p) => p.id)}::uuid[], ${moving.map((p) => newNumber.get(p.id)!)}::int[], ${moving.map((p) => p.new_state_id)}::uuid[], ${moving.map((p) => p.new_state_type)}::text[], ${moving.map((p) => p.clear_project)}::boolean[])
                as v(id, number, state_id, state_type, clear_project)
        where i.id = v.id`,
    );
    // The old identifier resolves through the redirect; if the same old key and number already pointed
    // elsewhere (a team key reused after a rename), the issue that held it last wins.
    await sql(
      tx.em,
      q`insert into issue_redirects (id, workspace_id, team_key, number, issue_id, created_at)
       select x.id, ${tx.workspace.id}, x.team_key, x.number, x.issue_id, now()
         from unnest(${moving.map(() => randomUUID())}::uuid[], ${moving.map((p) => p.from_team_key)}::text[], ${moving.map((p) => p.number)}::int[], ${moving.map((p) => p.id)}::uuid[]) as x(id, team_key, number, issue_id)
           on conflict (workspace_id, team_key, number) do update set issue_id = excluded.issue_id`,
    );

    const toTeam = { id: target.id, key: target.key, name: target.name };
    const moved = new Map<string, MovedIssueOut>();
    const events: ActivityInput[] = [];
    for (const p of moving) {
      const from = `${p.from_team_key}-${p.number}`;
      const to = `${target.key}-${newNumber.get(p.id)}`;
      moved.set(p.id, { id: p.id, from, to, droppedCycle: p.had_cycle, clearedProject: p.clear_project });
      events.push({
        workspaceId: tx.workspace.id,
        issueId: p.id,
        actorId: tx.caller.userId,
        type: "issue_moved",
        payload: {
          from: {
            identifier: from,
            team: { id: p.from_team_id, key: p.from_team_key, name: p.from_team_name },
          },
          to: { identifier: to, team: toTeam },
        },
      });
    }
    await recordActivities(tx.em, events);
    await recordChanges(
      tx.em,
      tx.workspace.id,
      moving.map((p) => ({
        entity: "issue" as const,
        action: "updated" as const,
        id: p.id,
        identifier: moved.get(p.id)!.to,
        teamKey: target.key,
        teamId: target.id,
      })),
    );
    // One entry per identifier given, in that order (two names of one issue report the same move).
    return keys.map((k) => moved.get(k.id) ?? unchanged(k.id));
  });
}
