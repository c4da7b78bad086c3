import type { components } from "@tracker/sdk/schema";
import { sql, sqlOne } from "../../db/sql.js";
import { EMPTY, q } from "../../db/sql-fragment.js";
import { iso } from "../../db/sql-time.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { visibleTeamCondition } from "../../rules/visibility.js";
import { resolveIssue } from "../shared/resolve.query.js";

type NotificationOut = components["schemas"]["Notification"];

/** How many of the caller's notifications are unread, on issues they still see. */
function unreadCountSql(scope: WorkspaceScope) {
  return q`(select count(*)::int from notifications n join issues i on i.id = n.issue_id
             join teams t on t.id = i.team_id
            where n.user_id = ${scope.caller.userId} and n.workspace_id = ${scope.workspace.id}
              and n.read_at is null and ${visibleTeamCondition(scope)})`;
}

/**
 * `GET /my/notifications`: the caller's notifications (written by the trigger of
 * db/functions/issue-notifications.ts), newest first, each with its activity event, and the unread count.
 */
export async function listNotifications(
  scope: WorkspaceScope,
  opts: { unread: boolean; limit: number },
): Promise<{ notifications: NotificationOut[]; unreadCount: number }> {
  const rows = await sql<{
    id: string;
    reason: NotificationOut["reason"];
    read_at: Date | null;
    created_at: Date;
    event_id: string;
    type: NotificationOut["event"]["type"];
    payload: Record<string, unknown>;
    event_at: Date;
    actor_id: string | null;
    actor_name: string | null;
    issue_id: string;
    identifier: string;
    title: string;
    unread_count: number;
  }>(
    scope.em,
    q`select n.id, n.reason, n.read_at, n.created_at, e.id as event_id, e.type, e.payload,
            e.created_at as event_at, a.id as actor_id, a.name as actor_name,
            i.id as issue_id, t.key || '-' || i.number as identifier, i.title,
            ${unreadCountSql(scope)} as unread_count
       from notifications n
       join activity_events e on e.id = n.activity_id
       join issues i on i.id = n.issue_id
       join teams t on t.id = i.team_id
       left join users a on a.id = e.actor_id
      where n.user_id = ${scope.caller.userId} and n.workspace_id = ${scope.workspace.id}
        ${opts.unread ? q`and n.read_at is null` : EMPTY}
        and ${visibleTeamCondition(scope)}
      order by n.created_at desc, n.id desc
      limit ${opts.limit}`,
  );
  const unreadCount =
    rows[0]?.unread_count ??
    (await sqlOne<{ n: number }>(scope.em, q`select ${unreadCountSql(scope)} as n`))!.n;
  return {
    notifications: rows.map((r) => ({
      id: r.id,
      reason: r.reason,
      readAt: iso(r.read_at),
      createdAt: iso(r.created_at)!,
      event: {
        id: r.event_id,
        type: r.type,
        payload: r.payload,
        createdAt: iso(r.event_at)!,
        actor: r.actor_id ? { id: r.actor_id, name: r.actor_name! } : null,
        issue: { id: r.issue_id, identifier: r.identifier, title: r.title },
      },
    })),
    unreadCount,
  };
}

/** `POST /my/notifications/read`: the caller's own notifications only; all of them without `ids`. */
export async function markNotificationsRead(
  scope: WorkspaceScope,
  body: { ids?: string[]; read?: boolean },
): Promise<{ unreadCount: number }> {
  const read = body.read ?? true;
  await sql(
    scope.em,
    q`update notifications set read_at = ${read ? q`coalesce(read_at, now())` : q`null`}
       where user_id = ${scope.caller.userId} and workspace_id = ${scope.workspace.id}
         ${body.ids ? q`and id = any(${body.ids}::uuid[])` : EMPTY}`,
  );
  return { unreadCount: (await sqlOne<{ n: number }>(scope.em, q`select ${unreadCountSql(scope)} as n`))!.n };
}

/** `GET /issues/{identifier}/subscription`: whether the caller's row says they follow the issue. */
export async function getSubscription(scope: WorkspaceScope, ref: string): Promise<{ subscribed: boolean }> {
  const issue = await resolveIssue(scope, ref);
  const row = await sqlOne<{ subscribed: boolean }>(
    scope.em,
    q`select subscribed from issue_subscriptions where issue_id = ${issue.id} and user_id = ${scope.caller.userId}`,
  );
  return { subscribed: row?.subscribed ?? false };
}

/** `PUT` / `DELETE /issues/{identifier}/subscription`: the caller's row, kept when unsubscribing. */
export async function setSubscription(
  scope: WorkspaceScope,
  ref: string,
  subscribed: boolean,
): Promise<{ subscribed: boolean }> {
  const issue = await resolveIssue(scope, ref);
  await sql(
    scope.em,
    q`insert into issue_subscriptions (issue_id, user_id, workspace_id, subscribed, created_at)
      values (${issue.id}, ${scope.caller.userId}, ${scope.workspace.id}, ${subscribed}, now())
      on conflict (issue_id, user_id) do update set subscribed = excluded.subscribed`,
  );
  return { subscribed };
}
