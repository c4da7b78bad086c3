import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import { memberSeesTeamSql } from "../../rules/visibility.js";

export type NotificationEmail = components["schemas"]["NotificationEmail"];

/**
 * The statements of notification e-mail (openapi.yaml, `getNotificationSettings`): a person's setting,
 * the outbox of `instant` e-mails (`notification_mails`, filled by the trigger of
 * `db/functions/notification-mails.ts`) and the people due a daily e-mail.
 */

/** The person's setting; no row is `none`. */
export async function emailSetting(em: EntityManager, userId: string): Promise<NotificationEmail> {
  const row = await sqlOne<{ email: NotificationEmail }>(
    em,
    q`select email from notification_settings where user_id = ${userId}`,
  );
  return row?.email ?? "none";
}

/**
 * Sets it. Choosing `daily` (from another setting) starts the digest's clock now, so the first daily e-mail
 * holds what arrives from now on.
 */
export async function setEmailSetting(em: EntityManager, userId: string, email: NotificationEmail) {
  await sql(
    em,
    q`insert into notification_settings as s (user_id, email, last_digest_at, updated_at)
      values (${userId}, ${email}, now(), now())
      on conflict (user_id) do update
        set email = excluded.email, updated_at = now(),
            last_digest_at = case when s.email = 'daily' then s.last_digest_at else now() end`,
  );
}

/** What a notification e-mail says: the notification, its issue, its workspace and its recipient. */
export interface MailItem {
  id: string;
  attempts: number;
  /** The person still wants it and still sees the issue: else it is dropped unsent. */
  wanted: boolean;
  to: string;
  workspace: string;
  slug: string;
  identifier: string;
  title: string;
  reason: string;
  type: string;
  payload: Record<string, unknown>;
  actor: string | null;
  recipientId: string;
  createdAt: Date;
}

const ITEM_COLUMNS = q`u.email as to, w.name as workspace, w.slug, t.key || '-' || i.number as identifier,
        i.title, n.reason, e.type, e.payload, a.name as actor, n.user_id as "recipientId", n.created_at as "createdAt"`;

const ITEM_JOINS = q`join users u on u.id = n.user_id
        join workspaces w on w.id = n.workspace_id
        join issues i on i.id = n.issue_id
        join teams t on t.id = i.team_id
        join activity_events e on e.id = n.activity_id
        left join users a on a.id = e.actor_id
        left join memberships m on m.workspace_id = n.workspace_id and m.user_id = n.user_id`;

const SEES = raw(`(m.user_id is not null and ${memberSeesTeamSql("t", "u", "m")})`);

/**
 * Claims up to `limit` due `instant` e-mails for `leaseSeconds` (SKIP LOCKED: instances share the outbox, and
 * one is sent by one instance at a time); an instance that dies holding them leaves them due again when the
 * lease runs out: at least once.
 */
export async function claimInstantMails(em: EntityManager, limit: number, leaseSeconds: number) {
  return sql<MailItem>(
    em,
    q`with claimed as (
        update notification_mails o set attempts = o.attempts + 1, due_at = now() + make_interval(secs => ${leaseSeconds})
         where o.notification_id in (select notification_id from notification_mails where due_at <= now()
                                      order by due_at limit ${limit} for update skip locked)
        returning o.notification_id, o.attempts)
      select c.notification_id as id, c.attempts,
             (coalesce(s.email, 'none') = 'instant' and ${SEES}) as wanted,
             ${ITEM_COLUMNS}
        from claimed c
        join notifications n on n.id = c.notification_id
        ${ITEM_JOINS}
        left join notification_settings s on s.user_id = n.user_id`,
  );
}

/** Sent (or not wanted any more): off the outbox. */
export async function finishMails(em: EntityManager, ids: string[]): Promise<void> {
  if (ids.length)
    await sql(em, q`delete from notification_mails where notification_id = any(${ids}::uuid[])`);
}

/** Failed: due again after `delaySeconds`. */
export async function retryMailLater(em: EntityManager, id: string, delaySeconds: number): Promise<void> {
  await sql(
    em,
    q`update notification_mails set due_at = now() + make_interval(secs => ${delaySeconds}) where notification_id = ${id}`,
  );
}

/**
 * One person due a daily e-mail at `scheduled` (their last one, or their choosing `daily`, was before it),
 * locked for this transaction (SKIP LOCKED: another instance takes the next person); undefined when none is.
 */
export async function lockNextDigest(em: EntityManager, scheduled: Date, skip: string[]) {
  return sqlOne<{ user_id: string; since: Date | null }>(
    em,
    q`select user_id, last_digest_at as since from notification_settings
       where email = 'daily' and (last_digest_at is null or last_digest_at < ${scheduled})
         and not (user_id = any(${skip}::uuid[]))
       order by user_id limit 1 for update skip locked`,
  );
}

/** The person's unread notifications after `since` (none: the last day before `now`), that they still see. */
export async function unreadSince(em: EntityManager, userId: string, since: Date | null, now: Date) {
  return sql<MailItem>(
    em,
    q`select n.id, 0 as attempts, true as wanted, ${ITEM_COLUMNS}
        from notifications n
        ${ITEM_JOINS}
       where n.user_id = ${userId} and n.read_at is null
         and n.created_at > coalesce(${since}::timestamptz, ${now}::timestamptz - interval '1 day')
         and n.created_at <= ${now} and ${SEES}
       order by w.name, n.created_at
       limit 200`,
  );
}

/** The daily e-mail went out (or there was nothing to send) for `at`. */
export async function digestSent(em: EntityManager, userId: string, at: Date): Promise<void> {
  await sql(em, q`update notification_settings set last_digest_at = ${at} where user_id = ${userId}`);
}
