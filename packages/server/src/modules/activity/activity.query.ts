import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql } from "../../db/sql.js";
import { q } from "../../db/sql-fragment.js";
import { iso } from "../../db/sql-time.js";
import type { WorkspaceScope } from "../../http/handler.js";
import type { StateType } from "../../rules/state-types.js";
import { visibleTeamCondition } from "../../rules/visibility.js";

/**
 * Activity on issues: what `GET /my/digest` lists. Each event says who did what to which issue, and its
 * payload documents what changed from what to what (shapes below, also in the contract's getDigest).
 * Record events with the same EntityManager as the write, inside its transaction, so they commit or roll
 * back with it.
 */

export interface UserBrief {
  id: string;
  name: string;
}
export interface StateBrief {
  id: string;
  name: string;
  type: StateType;
}
export interface TeamBrief {
  id: string;
  key: string;
  name: string;
}
export interface FieldChange<T = unknown> {
  from: T;
  to: T;
}

/** The fields an `issue_updated` event reports (other changes have their own event types). */
export type IssueUpdatedField =
  | "title"
  | "description"
  | "priority"
  | "estimate"
  | "dueDate"
  | "delegate"
  | "project"
  | "cycle"
  | "parent";

/** Payload shape of every activity event type this server records. */
export interface ActivityPayloads {
  issue_created: { title: string; team: TeamBrief; state: StateBrief };
  issue_updated: { changes: Partial<Record<IssueUpdatedField, FieldChange>> };
  state_changed: { from: StateBrief; to: StateBrief };
  assignee_changed: { from: UserBrief | null; to: UserBrief | null };
  /** `body` cut to 500 characters (use `commentAddedPayload`). */
  comment_added: { comment: { id: string; body: string } };
  /** `mergedFrom`: the source label's name, when a label merge caused the change. */
  labels_changed: { added: string[]; removed: string[]; mergedFrom?: string };
  issue_moved: {
    from: { identifier: string; team: TeamBrief };
    to: { identifier: string; team: TeamBrief };
  };
  /** By the code-host integration (modules/codehost), with `actorId` null. */
  pull_request: {
    action: string;
    pullRequest: { repository: string; number: number; title: string; url: string; state: string };
  };
  /** The relation seen from the event's issue: `blocks` on one side is `blocked_by` on the other. */
  relation_added: { type: string; issue: IssueBriefOut };
  relation_removed: { type: string; issue: IssueBriefOut };
  /** `POST /issues/{identifier}/archive` and `/unarchive` (issues/write/archive.query.ts): who and when say it all. */
  issue_archived: Record<string, never>;
  issue_unarchived: Record<string, never>;
  /** An agent's session opened on the issue (modules/agents), recorded by its own statement. */
  agent_session_created: {
    session: { id: string };
    agent: UserBrief;
    trigger: "delegated" | "mentioned";
  };
}

export interface IssueBriefOut {
  id: string;
  identifier: string;
  title: string;
}

/** Each side's view of a relation stored from the source's side (relation.query.ts). */
export const REVERSE_RELATION: Record<string, string> = {
  blocks: "blocked_by",
  duplicate: "duplicated_by",
  related: "related",
};

/**
 * The two activity events of a relation made or removed between `source` and `target` (stored as
 * `source <type> target`): one on each issue, each naming the other from its own side.
 */
export function relationActivities(
  workspaceId: string,
  actorId: string | null,
  kind: "relation_added" | "relation_removed",
  type: string,
  source: IssueBriefOut,
  target: IssueBriefOut,
): ActivityInput[] {
  return [
    { workspaceId, issueId: source.id, actorId, type: kind, payload: { type, issue: target } },
    {
      workspaceId,
      issueId: target.id,
      actorId,
      type: kind,
      payload: { type: REVERSE_RELATION[type] ?? type, issue: source },
    },
  ];
}
export type ActivityType = keyof ActivityPayloads;

export type ActivityInput = {
  [K in ActivityType]: {
    workspaceId: string;
    issueId: string;
    /** `null` for automation (workflow rules). */
    actorId: string | null;
    type: K;
    payload: ActivityPayloads[K];
  };
}[ActivityType];

/**
 * One `issue_updated` event per issue for the same change of one field, as bulk operations make them
 * (cycle rollover and delete, a project losing a team, a parent left behind by a move).
 */
export function fieldChangedActivities(
  workspaceId: string,
  actorId: string | null,
  issueIds: string[],
  field: IssueUpdatedField,
  change: FieldChange,
): ActivityInput[] {
  return issueIds.map((issueId) => ({
    workspaceId,
    issueId,
    actorId,
    type: "issue_updated",
    payload: { changes: { [field]: change } },
  }));
}

/** Records one activity event in the caller's transaction. */
export async function recordActivity(em: EntityManager, event: ActivityInput): Promise<void> {
  await recordActivities(em, [event]);
}

/** Records many activity events in one insert (e.g. one `labels_changed` per issue of a label merge). */
export async function recordActivities(em: EntityManager, events: ActivityInput[]): Promise<void> {
  if (events.length === 0) return;
  // Chunked so one statement of a very large bulk operation keeps its arrays (and memory) modest.
  for (let i = 0; i < events.length; i += 5000) {
    const insert = activityInsertSql(events.slice(i, i + 5000));
    await sql(em, insert);
  }
}

/**
 * The INSERT {@link recordActivities} runs for (at most a few thousand) events, to put in a write's own
 * statement as a CTE (`act as (...)`) and save a round trip. The events' `created_at` is
 * `clock_timestamp()`, so events recorded together keep their order.
 */
export function activityInsertSql(events: ActivityInput[]): { sql: string; params: unknown[] } {
  // One array per column, so the text is the same for any number of events (a write that prepares its
  // statement, such as a batch create, prepares one text) and a chunk of thousands binds six values.
  return {
    sql: `insert into activity_events (id, workspace_id, issue_id, actor_id, type, payload, created_at)
       select a.id, a.workspace_id, a.issue_id, a.actor_id, a.type, a.payload, clock_timestamp()
         from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::uuid[], ?::text[], ?::jsonb[])
              as a(id, workspace_id, issue_id, actor_id, type, payload)`,
    params: [
      events.map(() => randomUUID()),
      events.map((e) => e.workspaceId),
      events.map((e) => e.issueId),
      events.map((e) => e.actorId),
      events.map((e) => e.type),
      events.map((e) => JSON.stringify(e.payload)),
    ],
  };
}

/** The `comment_added` payload: the comment's id and its body cut to 500 characters. */
export function commentAddedPayload(comment: {
  id: string;
  body: string;
}): ActivityPayloads["comment_added"] {
  return { comment: { id: comment.id, body: comment.body.slice(0, 500) } };
}

export type ActivityEventOut = components["schemas"]["ActivityEvent"];

/**
 * The caller's digest: events by other people (or automation) on issues the caller created, is assigned
 * to, or commented on, and can still see; newest first. Filtered, sorted and limited in SQL.
 */
export async function listDigest(
  scope: WorkspaceScope,
  opts: { since?: string; limit?: number },
): Promise<ActivityEventOut[]> {
  const me = scope.caller.userId;
  const vis = visibleTeamCondition(scope);
  const since = opts.since ?? new Date(Date.now() - 14 * 24 * 3600 * 1000).toISOString();
  const rows = await sql<{
    id: string;
    type: ActivityEventOut["type"];
    payload: Record<string, unknown>;
    created_at: Date;
    actor_id: string | null;
    actor_name: string | null;
    issue_id: string;
    identifier: string;
    title: string;
  }>(
    scope.em,
    q`select e.id, e.type, e.payload, e.created_at, a.id as actor_id, a.name as actor_name,
            i.id as issue_id, t.key || '-' || i.number as identifier, i.title
       from activity_events e
       join issues i on i.id = e.issue_id
       join teams t on t.id = i.team_id
       left join users a on a.id = e.actor_id
      where e.workspace_id = ${scope.workspace.id} and e.created_at > ${since}::timestamptz
        and e.actor_id is distinct from ${me}
        and (i.creator_id = ${me} or i.assignee_id = ${me}
             or exists (select 1 from comments c where c.issue_id = i.id and c.author_id = ${me}))
        and ${vis}
      order by e.created_at desc, e.id desc
      limit ${opts.limit ?? 50}`,
  );
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    payload: r.payload,
    createdAt: iso(r.created_at)!,
    actor: r.actor_id ? { id: r.actor_id, name: r.actor_name! } : null,
    issue: { id: r.issue_id, identifier: r.identifier, title: r.title },
  }));
}
