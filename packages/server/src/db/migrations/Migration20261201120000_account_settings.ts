import { Migration } from "@mikro-orm/migrations";
import { NOTIFICATION_MAILS_FUNCTION, NOTIFICATION_MAILS_TRIGGER } from "../functions/notification-mails.js";

/**
 * A person's own settings (openapi.yaml, `listSessions`, `putNotificationSettings`):
 * - `sessions.user_agent` (the browser as it signed in) and `sessions.last_seen_at` (written at most once a
 *   minute by authentication; not a column the `sessions_auth_epoch` trigger watches).
 * - `notification_settings` (entity `modules/notifications/notification.entity.ts`): how each person is told
 *   of notifications, and when their last daily e-mail went out.
 * - `notification_mails`: the outbox of `instant` e-mails, filled by a trigger on `notifications`
 *   (`db/functions/notification-mails.ts`).
 */
export class Migration20261201120000_account_settings extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "sessions" add column "user_agent" text null, add column "last_seen_at" timestamptz null`,
    );
    this.addSql(`update "sessions" set "last_seen_at" = "created_at"`);
    this.addSql(`alter table "sessions" alter column "last_seen_at" set not null`);
    this.addSql(
      `create table "notification_settings" ("user_id" uuid not null, "email" text not null, "last_digest_at" timestamptz null, "updated_at" timestamptz not null, constraint "notification_settings_pkey" primary key ("user_id"))`,
    );
    this.addSql(
      `alter table "notification_settings" add constraint "notification_settings_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `create table "notification_mails" ("notification_id" uuid not null, "attempts" int not null, "due_at" timestamptz not null, constraint "notification_mails_pkey" primary key ("notification_id"))`,
    );
    this.addSql(`create index "notification_mails_due_at_index" on "notification_mails" ("due_at")`);
    this.addSql(
      `alter table "notification_mails" add constraint "notification_mails_notification_id_foreign" foreign key ("notification_id") references "notifications" ("id") on update cascade on delete cascade`,
    );
    this.addSql(NOTIFICATION_MAILS_FUNCTION);
    this.addSql(NOTIFICATION_MAILS_TRIGGER);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger notifications_mail_outbox on notifications`);
    this.addSql(`drop function notifications_mail_outbox()`);
    this.addSql(`drop table "notification_mails"`);
    this.addSql(`drop table "notification_settings"`);
    this.addSql(`alter table "sessions" drop column "user_agent", drop column "last_seen_at"`);
  }
}
