import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { visibleTeamCondition } from "../../rules/visibility.js";
import { resolveTeam } from "../shared/resolve.query.js";
import { type TeamFields, teamOut } from "./team.serialize.js";

/** The statements of teams, their members and their workflow rules (team.service.ts writes the rest). */

type Schemas = components["schemas"];

/** Columns of the Team shape, with the states in position order aggregated in the same query. */
const TEAM_COLUMNS = `t.id, t.key, t.name, t.personal, t.cycles_enabled as "cyclesEnabled",
  t.cycle_length_weeks as "cycleLengthWeeks", t.estimate_scale as "estimateScale",
  (select coalesce(json_agg(json_build_object('id', s.id, 'name', s.name, 'type', s.type)
                            order by s.position, s.name), '[]'::json)
     from workflow_states s where s.team_id = t.id) as states`;

/** The teams the caller has joined, personal space first, then by name. */
export async function listJoinedTeams(scope: WorkspaceScope) {
  const vis = visibleTeamCondition(scope);
  const rows = await sql<TeamFields & { states: Schemas["StateRef"][] }>(
    scope.em,
    q`select ${raw(TEAM_COLUMNS)}
       from teams t join team_members tm on tm.team_id = t.id and tm.user_id = ${scope.caller.userId}
      where t.workspace_id = ${scope.workspace.id} and ${vis}
      order by t.personal desc, lower(t.name), t.key`,
  );
  return rows.map((row) => teamOut(row, row.states));
}

/** One team by id as the Team shape (updateTeam's answer), joined or not. */
export async function readTeam(em: EntityManager, teamId: string) {
  const row = await sqlOne<TeamFields & { states: Schemas["StateRef"][] }>(
    em,
    q`select ${raw(TEAM_COLUMNS)} from teams t where t.id = ${teamId}`,
  );
  return row ? teamOut(row, row.states) : undefined;
}

/**
 * One team the caller may see by key or id, as `getTeam` answers it: the Team shape with `joined` and
 * `memberCount`, in one statement (404 when it names nothing the caller sees).
 */
export async function readVisibleTeam(scope: WorkspaceScope, ref: string): Promise<Schemas["TeamDetail"]> {
  const team = await resolveTeam(scope, ref);
  const row = (await sqlOne<
    TeamFields & { states: Schemas["StateRef"][]; joined: boolean; member_count: number }
  >(
    scope.em,
    q`select ${raw(TEAM_COLUMNS)},
            exists (select 1 from team_members tm where tm.team_id = t.id and tm.user_id = ${scope.caller.userId}) as joined,
            (select count(*)::int from team_members tm join users mu on mu.id = tm.user_id
              where tm.team_id = t.id and mu.kind = 'person') as member_count
       from teams t where t.id = ${team.id}`,
  ))!;
  return { ...teamOut(row, row.states), joined: row.joined, memberCount: row.member_count };
}

/** Every team the caller may see, with `joined`. */
export async function listVisibleTeams(scope: WorkspaceScope) {
  const vis = visibleTeamCondition(scope);
  return sql<{ id: string; key: string; name: string; joined: boolean }>(
    scope.em,
    q`select t.id, t.key, t.name,
            exists (select 1 from team_members tm where tm.team_id = t.id and tm.user_id = ${scope.caller.userId}) as joined
       from teams t
      where t.workspace_id = ${scope.workspace.id} and ${vis}
      order by lower(t.name), t.key`,
  );
}

/**
 * Old identifiers of the team's issues keep resolving after a key change. A newer redirect for the same
 * old identifier replaces an older one: the old key's current issue is what that identifier showed until
 * now.
 */
export async function redirectTeamIdentifiers(
  em: EntityManager,
  workspaceId: string,
  teamId: string,
  oldKey: string,
): Promise<void> {
  await sql(
    em,
    q`insert into issue_redirects (id, workspace_id, team_key, number, issue_id, created_at)
     select gen_random_uuid(), ${workspaceId}, ${oldKey}, i.number, i.id, now() from issues i where i.team_id = ${teamId}
     on conflict (workspace_id, team_key, number)
     do update set issue_id = excluded.issue_id, created_at = excluded.created_at`,
  );
}

/** The team's issues, by number. */
export function teamIssues(em: EntityManager, teamId: string) {
  return sql<{ id: string; number: number }>(
    em,
    q`select id, number from issues where team_id = ${teamId} order by number`,
  );
}

/**
 * The team's projects, locked in id order, each with whether it is the project's only team: so a
 * concurrent change of their teams cannot make a "sole" project shared.
 */
export function lockTeamProjects(em: EntityManager, teamId: string) {
  return sql<{ id: string; sole: boolean }>(
    em,
    q`select p.id,
            not exists (select 1 from project_teams o where o.project_id = p.id and o.team_id <> ${teamId}) as sole
       from projects p join project_teams pt on pt.project_id = p.id and pt.team_id = ${teamId}
      order by p.id
        for update of p`,
  );
}

/** Deletes projects, with the workflow rules of other teams limited to them: they would never fire again. */
export async function deleteSoleProjects(em: EntityManager, ids: string[]): Promise<void> {
  await sql(em, q`delete from workflow_rules where project_id = any(${ids}::uuid[])`);
  await sql(em, q`delete from projects where id = any(${ids}::uuid[])`);
}

export async function listTeamMembers(scope: WorkspaceScope, ref: string) {
  const team = await resolveTeam(scope, ref);
  const members = await sql<{ id: string; name: string; email: string }>(
    scope.em,
    q`select u.id, u.name, u.email
         from team_members tm join users u on u.id = tm.user_id
         join memberships m on m.user_id = u.id and m.workspace_id = ${scope.workspace.id}
        where tm.team_id = ${team.id}
        order by lower(u.name), u.id`,
  );
  const workspaceMembers = await sql<{ id: string; name: string; email: string }>(
    scope.em,
    q`select u.id, u.name, u.email from memberships m join users u on u.id = m.user_id
        where m.workspace_id = ${scope.workspace.id} order by lower(u.name), u.id`,
  );
  return { members, workspaceMembers };
}

/** The contract's WorkflowRule shape, as columns of `workflow_rules r`. */
const RULE_COLUMNS = `r.id, r.trigger, r.project_id as "projectId", r.target_state_id as "targetStateId"`;

export async function listWorkflows(scope: WorkspaceScope, ref: string) {
  const team = await resolveTeam(scope, ref);
  const workflows = await sql<Schemas["WorkflowRule"]>(
    scope.em,
    q`select ${raw(RULE_COLUMNS)} from workflow_rules r
        where r.team_id = ${team.id} order by r.trigger, r.project_id nulls first, r.created_at, r.id`,
  );
  const states = await sql<{
    id: string;
    name: string;
    type: components["schemas"]["StateType"];
    color: string;
    position: number;
  }>(
    scope.em,
    q`select id, name, type, color, position from workflow_states where team_id = ${team.id} order by position, name`,
  );
  const projects = await sql<{ id: string; name: string }>(
    scope.em,
    q`select p.id, p.name from projects p join project_teams pt on pt.project_id = p.id
        where pt.team_id = ${team.id} order by lower(p.name), p.id`,
  );
  return { workflows, states, projects };
}

/** Whether the project includes the team. */
export async function projectIncludesTeam(em: EntityManager, projectId: string, teamId: string) {
  return (
    (await sqlOne(
      em,
      q`select 1 from project_teams where project_id = ${projectId} and team_id = ${teamId}`,
    )) !== undefined
  );
}

/**
 * The team's rule for the trigger (and project), created or its target replaced. The unique index on
 * (team, trigger, project) treats nulls as equal, so the team-wide rule upserts too.
 */
export async function upsertWorkflowRule(
  em: EntityManager,
  teamId: string,
  input: { trigger: Schemas["WorkflowTrigger"]; targetStateId: string; projectId: string | null },
): Promise<Schemas["WorkflowRule"] & { created: boolean }> {
  const row = await sqlOne<Schemas["WorkflowRule"] & { created: boolean }>(
    em,
    q`insert into workflow_rules as r (id, team_id, trigger, project_id, target_state_id, created_at)
     values (${randomUUID()}, ${teamId}, ${input.trigger}, ${input.projectId}, ${input.targetStateId}, now())
     on conflict (team_id, trigger, project_id) do update set target_state_id = excluded.target_state_id
     returning ${raw(RULE_COLUMNS)}, (xmax = 0) as created`,
  );
  if (!row) throw new Error("upsert returned no row");
  return row;
}
