import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql, sqlOne } from "../../db/sql.js";
import { EMPTY, q, raw, type SqlFragment } from "../../db/sql-fragment.js";
import { isoSql } from "../../db/sql-time.js";
import { type Change, changeEventsSql, changeValues } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { memberSeesTeamSql, visibleTeamCondition } from "../../rules/visibility.js";
import { isUuid } from "../shared/resolve.query.js";

/** The statements of agents, their sessions and their activities (openapi.yaml, "Agents"). */

export type AgentOut = components["schemas"]["Agent"];
export type AgentSessionOut = components["schemas"]["AgentSession"];
export type AgentActivityOut = components["schemas"]["AgentActivity"];
export type ActivityKind = components["schemas"]["AgentActivityKind"];
type AgentActionIn = components["schemas"]["AgentAction"];

// ---- Agents ------------------------------------------------------------------------------------------

const AGENT_COLUMNS = `u.id, u.name, u.avatar_url as "avatarUrl",
       coalesce((select k.access from api_keys k where k.user_id = u.id order by k.created_at, k.id limit 1),
                'write') as access,
       ${isoSql("u.created_at")} as "createdAt"`;

/** The workspace's agents, by name. */
export async function listAgents(scope: WorkspaceScope): Promise<AgentOut[]> {
  return sql<AgentOut>(
    scope.em,
    q`select ${raw(AGENT_COLUMNS)}
       from users u join memberships m on m.user_id = u.id and m.workspace_id = ${scope.workspace.id}
      where u.kind = 'agent' and u.agent_workspace_id = ${scope.workspace.id}
      order by lower(u.name), u.id`,
  );
}

export async function loadAgent(em: EntityManager, id: string): Promise<AgentOut> {
  return (await sqlOne<AgentOut>(em, q`select ${raw(AGENT_COLUMNS)} from users u where u.id = ${id}`))!;
}

/** Whether the user is an agent (`users.kind`). */
export async function isAgent(em: EntityManager, userId: string): Promise<boolean> {
  const row = await sqlOne<{ kind: string }>(em, q`select kind from users where id = ${userId}`);
  return row?.kind === "agent";
}

/**
 * An agent of the workspace by name (case-insensitive) or id, and whether it sees the team `teamId`
 * (`rules/visibility.ts`, `memberSeesTeamSql`); undefined when there is none.
 */
export async function findAgent(
  scope: WorkspaceScope,
  ref: string,
  teamId: string,
): Promise<{ id: string; name: string; sees: boolean } | undefined> {
  return sqlOne(
    scope.em,
    q`select u.id, u.name, ${raw(memberSeesTeamSql("t", "u", "m"))} as sees
       from users u
       join memberships m on m.user_id = u.id and m.workspace_id = ${scope.workspace.id}
       join teams t on t.id = ${teamId}
      where u.kind = 'agent' and u.agent_workspace_id = ${scope.workspace.id}
        and ${isUuid(ref) ? q`u.id = ${ref}` : q`lower(u.name) = lower(${ref})`}`,
  );
}

/**
 * The agents a comment's body mentions as `@<name>` (the boundaries the inbox's mentions use,
 * db/functions/issue-notifications.ts) that see the issue's team. Agent names hold only letters, digits,
 * `_` and `-` (the contract's `AgentName`), none of them special in a pattern.
 */
export async function mentionedAgents(
  scope: WorkspaceScope,
  teamId: string,
  body: string,
): Promise<{ id: string; name: string }[]> {
  if (!body.includes("@")) return [];
  return sql(
    scope.em,
    q`select u.id, u.name
       from users u
       join memberships m on m.user_id = u.id and m.workspace_id = ${scope.workspace.id}
       join teams t on t.id = ${teamId}
      where u.kind = 'agent' and u.agent_workspace_id = ${scope.workspace.id}
        and ${body} ~* ('(^|[^[:alnum:]_.-])@' || u.name || '($|[^[:alnum:]_-])')
        and ${raw(memberSeesTeamSql("t", "u", "m"))}
      order by u.id`,
  );
}

// ---- Sessions ----------------------------------------------------------------------------------------

/**
 * The state a session shows (the contract's `AgentSessionState`): the stored one, except that one still
 * waiting for its agent 10 s after it began waiting is `unresponsive`, and one not finished with no
 * activity for 30 minutes is `stale`. Read from the times, so no job has to mark them.
 */
const SESSION_STATE_SQL = `case
    when s.state in ('pending', 'active', 'awaiting_input')
         and coalesce(s.last_activity_at, s.created_at) < now() - interval '30 minutes' then 'stale'
    when s.state = 'pending' and s.state_at < now() - interval '10 seconds' then 'unresponsive'
    else s.state end`;

const SESSION_FROM = `agent_sessions s
       join issues i on i.id = s.issue_id
       join teams t on t.id = i.team_id
       join users a on a.id = s.agent_id`;

const SESSION_JSON = `json_build_object(
    'id', s.id,
    'issue', json_build_object('id', i.id, 'identifier', t.key || '-' || i.number, 'title', i.title),
    'agent', json_build_object('id', a.id, 'name', a.name),
    'trigger', s.trigger,
    'creator', (select json_build_object('id', c.id, 'name', c.name) from users c where c.id = s.creator_id),
    'state', ${SESSION_STATE_SQL},
    'createdAt', ${isoSql("s.created_at")}, 'updatedAt', ${isoSql("s.updated_at")},
    'lastActivityAt', ${isoSql("s.last_activity_at")})`;

/** The sessions the caller may read: its own as their agent, and those on issues it sees. */
function readableSession(scope: WorkspaceScope): SqlFragment {
  return q`s.workspace_id = ${scope.workspace.id}
        and (s.agent_id = ${scope.caller.userId} or ${visibleTeamCondition(scope)})`;
}

/**
 * `GET /agent-sessions`: on one issue (already resolved, so seen), or the caller's own (as the agent, or
 * as the person who opened them); newest first.
 */
export async function listSessions(
  scope: WorkspaceScope,
  opts: { issueId?: string; limit: number },
): Promise<AgentSessionOut[]> {
  const me = scope.caller.userId;
  const rows = await sql<{ session: AgentSessionOut }>(
    scope.em,
    q`select ${raw(SESSION_JSON)} as session from ${raw(SESSION_FROM)}
      where ${readableSession(scope)}
        and ${opts.issueId ? q`s.issue_id = ${opts.issueId}` : q`(s.agent_id = ${me} or s.creator_id = ${me})`}
      order by s.created_at desc, s.id desc
      limit ${opts.limit}`,
  );
  return rows.map((r) => r.session);
}

/** One session the caller may read, or undefined. */
export async function loadSession(scope: WorkspaceScope, id: string): Promise<AgentSessionOut | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await sqlOne<{ session: AgentSessionOut }>(
    scope.em,
    q`select ${raw(SESSION_JSON)} as session from ${raw(SESSION_FROM)}
      where s.id = ${id} and ${readableSession(scope)}`,
  );
  return row?.session;
}

export interface LockedSession {
  id: string;
  agentId: string;
  state: string;
  issueId: string;
  identifier: string;
  teamKey: string;
  teamId: string;
}

/** A session the caller may read, locked for a write; undefined when there is none. */
export async function lockSession(scope: WorkspaceScope, id: string): Promise<LockedSession | undefined> {
  if (!isUuid(id)) return undefined;
  return sqlOne<LockedSession>(
    scope.em,
    q`select s.id, s.agent_id as "agentId", s.state, s.issue_id as "issueId",
            t.key || '-' || i.number as identifier, t.key as "teamKey", t.id as "teamId"
       from ${raw(SESSION_FROM)}
      where s.id = ${id} and ${readableSession(scope)}
      for update of s`,
  );
}

/** The sessions on an issue that wait for a person's answer, locked. */
export async function lockAwaitingSessions(scope: WorkspaceScope, issueId: string): Promise<string[]> {
  const rows = await sql<{ id: string }>(
    scope.em,
    q`select id from agent_sessions
       where issue_id = ${issueId} and workspace_id = ${scope.workspace.id} and state = 'awaiting_input'
       order by id for update`,
  );
  return rows.map((r) => r.id);
}

/** The agent's session on the issue that is not finished, if any (the newest). */
export async function openSessionOf(
  scope: WorkspaceScope,
  issueId: string,
  agentId: string,
): Promise<string | undefined> {
  const row = await sqlOne<{ id: string }>(
    scope.em,
    q`select id from agent_sessions
       where issue_id = ${issueId} and agent_id = ${agentId} and workspace_id = ${scope.workspace.id}
         and state in ('pending', 'active', 'awaiting_input')
       order by created_at desc limit 1 for update`,
  );
  return row?.id;
}

export interface IssueOfSession {
  id: string;
  identifier: string;
  teamKey: string;
  teamId: string;
}

const sessionChanges = (
  issue: IssueOfSession,
  changes: Omit<Change, "identifier" | "teamKey" | "teamId">[],
) =>
  changes.map((c) => ({ ...c, identifier: issue.identifier, teamKey: issue.teamKey, teamId: issue.teamId }));

/**
 * One statement opening a session of `agent` on the issue: the session (`pending`), the issue's
 * `agent_session_created` activity event by the caller, the agent's notification of it (`reason`
 * `delegated` or `mentioned`), and the change events (`agent_session` created, the agent's
 * `notification`). The new session's id.
 */
export async function insertSession(
  scope: WorkspaceScope,
  issue: IssueOfSession,
  agent: { id: string; name: string },
  trigger: "delegated" | "mentioned",
  commentId: string | null,
): Promise<string> {
  const ws = scope.workspace.id;
  const id = randomUUID();
  const recorded = changeEventsSql(
    "chg",
    ws,
    changeValues([
      ...sessionChanges(issue, [{ entity: "agent_session", action: "created", id }]),
      // The agent's inbox on the live stream, as db/functions/issue-notifications.ts records it.
      {
        entity: "notification",
        action: "created",
        id: agent.id,
        identifier: issue.identifier,
        teamKey: issue.teamKey,
      },
    ]),
  );
  const payload = JSON.stringify({ session: { id }, agent, trigger });
  await sql(
    scope.em,
    q`with ses as (
        insert into agent_sessions (id, workspace_id, issue_id, agent_id, creator_id, trigger, comment_id, state,
                                    state_at, last_activity_at, created_at, updated_at)
        values (${id}, ${ws}, ${issue.id}, ${agent.id}, ${scope.caller.userId}, ${trigger}, ${commentId}, 'pending',
                now(), null, now(), now())
        returning id),
      ev as (
        insert into activity_events (id, workspace_id, issue_id, actor_id, type, payload, created_at)
        select gen_random_uuid(), ${ws}, ${issue.id}, ${scope.caller.userId}, 'agent_session_created',
               ${payload}::jsonb, clock_timestamp()
          from ses
        returning id, created_at),
      note as (
        insert into notifications (id, workspace_id, user_id, issue_id, activity_id, reason, created_at)
        select gen_random_uuid(), ${ws}, ${agent.id}, ${issue.id}, ev.id, ${trigger}, ev.created_at from ev
        on conflict do nothing
        returning 1),
      ${recorded.ctes}
      select (select count(*) from note) as noted, ${recorded.notify} as notified`,
  );
  return id;
}

/** The session's stored state after an activity of each kind (the contract's `createAgentActivity`). */
export const STATE_AFTER: Record<ActivityKind, string> = {
  thought: "active",
  action: "active",
  elicitation: "awaiting_input",
  response: "complete",
  error: "error",
  prompt: "pending",
  stop: "stopped",
};

/**
 * One statement recording an activity in a locked session: the activity, the session's new state and
 * times, and the change events (`agent_activity` created, `agent_session` updated). The activity's id.
 */
export async function insertActivity(
  scope: WorkspaceScope,
  session: LockedSession,
  activity: { kind: ActivityKind; body: string; action?: AgentActionIn | undefined },
): Promise<string> {
  const ws = scope.workspace.id;
  const id = randomUUID();
  const issue = {
    id: session.issueId,
    identifier: session.identifier,
    teamKey: session.teamKey,
    teamId: session.teamId,
  };
  const recorded = changeEventsSql(
    "chg",
    ws,
    changeValues(
      sessionChanges(issue, [
        { entity: "agent_activity", action: "created", id },
        { entity: "agent_session", action: "updated", id: session.id },
      ]),
    ),
  );
  const state = STATE_AFTER[activity.kind];
  await sql(
    scope.em,
    q`with act as (
        insert into agent_activities (id, workspace_id, session_id, issue_id, author_id, kind, body, action, created_at)
        values (${id}, ${ws}, ${session.id}, ${session.issueId}, ${scope.caller.userId}, ${activity.kind},
                ${activity.body}, ${activity.action ? JSON.stringify(activity.action) : null}::jsonb, clock_timestamp())
        returning created_at),
      ses as (
        update agent_sessions
           set state = ${state},
               state_at = case when state = ${state} then state_at else (select created_at from act) end,
               last_activity_at = (select created_at from act), updated_at = now()
         where id = ${session.id}
        returning 1),
      ${recorded.ctes}
      select (select count(*) from ses) as updated, ${recorded.notify} as notified`,
  );
  return id;
}

// ---- Activities --------------------------------------------------------------------------------------

/** One contract `AgentActivity` over `agent_activities x`. */
export const ACTIVITY_JSON = `json_build_object(
    'id', x.id, 'sessionId', x.session_id, 'kind', x.kind, 'body', x.body, 'action', x.action,
    'author', (select json_build_object('id', au.id, 'name', au.name) from users au where au.id = x.author_id),
    'createdAt', ${isoSql("x.created_at")})`;

/** A session's activities, oldest first (or only the one `activityId`). */
export async function loadActivities(
  em: EntityManager,
  sessionId: string,
  activityId?: string,
): Promise<AgentActivityOut[]> {
  const rows = await sql<{ activity: AgentActivityOut }>(
    em,
    q`select ${raw(ACTIVITY_JSON)} as activity from agent_activities x
       where x.session_id = ${sessionId} ${activityId ? q`and x.id = ${activityId}` : EMPTY}
       order by x.created_at, x.id`,
  );
  return rows.map((r) => r.activity);
}
