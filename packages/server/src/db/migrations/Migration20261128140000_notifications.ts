import { Migration } from "@mikro-orm/migrations";
import {
  ACTIVITY_EVENTS_NOTIFY,
  ACTIVITY_EVENTS_NOTIFY_TRIGGER,
  ISSUES_SUBSCRIBE,
  ISSUES_SUBSCRIBE_TRIGGERS,
} from "../functions/issue-notifications.js";

/**
 * Subscriptions and notifications (the contract's "Inbox"): tables as the entities describe them
 * (modules/notifications/notification.entity.ts), the triggers of `db/functions/issue-notifications.ts`,
 * and every existing issue's creator and assignee subscribed.
 */
export class Migration20261128140000_notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "issue_subscriptions" ("issue_id" uuid not null, "user_id" uuid not null, "workspace_id" uuid not null, "subscribed" boolean not null, "created_at" timestamptz not null, constraint "issue_subscriptions_pkey" primary key ("issue_id", "user_id"))',
    );
    this.addSql(
      'create index "issue_subscriptions_user_id_workspace_id_index" on "issue_subscriptions" ("user_id", "workspace_id")',
    );
    this.addSql(
      'create table "notifications" ("id" uuid not null, "workspace_id" uuid not null, "user_id" uuid not null, "issue_id" uuid not null, "activity_id" uuid not null, "reason" text not null, "read_at" timestamptz null, "created_at" timestamptz not null, constraint "notifications_pkey" primary key ("id"))',
    );
    this.addSql(
      'create index "notifications_user_id_workspace_id_created_at_index" on "notifications" ("user_id", "workspace_id", "created_at")',
    );
    this.addSql(
      'alter table "notifications" add constraint "notifications_user_id_activity_id_unique" unique ("user_id", "activity_id")',
    );
    this.addSql(
      'alter table "issue_subscriptions" add constraint "issue_subscriptions_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "issue_subscriptions" add constraint "issue_subscriptions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "issue_subscriptions" add constraint "issue_subscriptions_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "notifications" add constraint "notifications_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "notifications" add constraint "notifications_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "notifications" add constraint "notifications_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "notifications" add constraint "notifications_activity_id_foreign" foreign key ("activity_id") references "activity_events" ("id") on update cascade on delete cascade',
    );
    this.addSql(ISSUES_SUBSCRIBE);
    for (const trigger of ISSUES_SUBSCRIBE_TRIGGERS) this.addSql(trigger);
    this.addSql(ACTIVITY_EVENTS_NOTIFY);
    this.addSql(ACTIVITY_EVENTS_NOTIFY_TRIGGER);
    this.addSql(`
      insert into issue_subscriptions (issue_id, user_id, workspace_id, subscribed, created_at)
      select i.id, u.id, i.workspace_id, true, now()
        from issues i cross join lateral (select i.creator_id as id union select i.assignee_id) u
       where u.id is not null
      on conflict do nothing`);
  }

  override async down(): Promise<void> {
    this.addSql("drop trigger activity_events_notify on activity_events");
    this.addSql("drop function activity_events_notify()");
    this.addSql("drop trigger issues_subscribe_insert on issues");
    this.addSql("drop trigger issues_subscribe_assignee on issues");
    this.addSql("drop function issues_subscribe()");
    this.addSql('drop table "notifications"');
    this.addSql('drop table "issue_subscriptions"');
  }
}
