/**
 * The e-mail outbox of notifications (openapi.yaml, `putNotificationSettings`): every insert into
 * `notifications` (by the trigger of `db/functions/issue-notifications.ts`, in the change's own
 * transaction) also queues, in the same statement, one `notification_mails` row per notification of a
 * person who chose `instant` e-mail. A committed change is therefore queued however the server dies
 * afterwards, and a rolled-back one never; `modules/notifications/notification-mailer.ts` claims the rows
 * (SKIP LOCKED), sends and deletes them. A statement trigger reading the inserted rows as a table: one
 * join with the small `notification_settings` per statement. Created by migration `account_settings`.
 */
export const NOTIFICATION_MAILS_FUNCTION = `
      create function notifications_mail_outbox() returns trigger language plpgsql as $$
      begin
        insert into notification_mails (notification_id, attempts, due_at)
        select n.id, 0, now()
          from new_rows n
          join notification_settings s on s.user_id = n.user_id and s.email = 'instant';
        return null;
      end $$`;

export const NOTIFICATION_MAILS_TRIGGER = `
      create trigger notifications_mail_outbox after insert on notifications
        referencing new table as new_rows for each statement execute function notifications_mail_outbox()`;
