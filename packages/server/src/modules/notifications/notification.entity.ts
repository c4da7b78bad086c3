import { defineEntity, p } from "@mikro-orm/core";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { ActivityEvent, Issue } from "../issues/issue.entity.js";
import { User } from "../users/user.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

/**
 * Who follows an issue. The creator and the assignee are subscribed by the trigger of
 * `db/functions/issue-notifications.ts`; `subscribed: false` keeps an explicit unsubscribe, so being
 * assigned again does not undo it.
 */
export const IssueSubscription = defineEntity({
  name: "IssueSubscription",
  tableName: "issue_subscriptions",
  indexes: [{ properties: ["user", "workspace"] }],
  properties: {
    issue: () => p.manyToOne(Issue).primary().deleteRule("cascade"),
    user: () => p.manyToOne(User).primary().deleteRule("cascade"),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    subscribed: p.boolean(),
    createdAt: createdTimestamp(),
  },
});

/**
 * One activity event for one person it concerns (`GET /my/notifications`), written by the trigger on
 * `activity_events` in the transaction of the change itself, so every write path that records activity
 * notifies. `reason`: assigned, created, subscribed or mentioned.
 */
export const Notification = defineEntity({
  name: "Notification",
  tableName: "notifications",
  indexes: [{ properties: ["user", "workspace", "createdAt"] }],
  uniques: [{ properties: ["user", "activity"] }],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    user: () => p.manyToOne(User).deleteRule("cascade"),
    issue: () => p.manyToOne(Issue).deleteRule("cascade"),
    activity: () => p.manyToOne(ActivityEvent).deleteRule("cascade"),
    reason: p.text(),
    readAt: p.datetime().nullable(),
    createdAt: createdTimestamp(),
  },
});

/**
 * How a person is told of their notifications (openapi.yaml, `putNotificationSettings`): `email` is
 * `none`, `instant` or `daily`; no row is `none`. `lastDigestAt`: when their last daily e-mail was sent
 * (or the setting chosen), so each scheduled hour sends once (`notification-mailer.ts`).
 */
export const NotificationSetting = defineEntity({
  name: "NotificationSetting",
  tableName: "notification_settings",
  properties: {
    user: () => p.manyToOne(User).primary().deleteRule("cascade"),
    email: p.text(),
    lastDigestAt: p.datetime().nullable(),
    updatedAt: p.datetime(),
  },
});

/**
 * The outbox of `instant` e-mails: one row per notification to send, queued by the trigger of
 * `db/functions/notification-mails.ts`, deleted once sent; `attempts` and `dueAt` space out retries.
 */
export const NotificationMail = defineEntity({
  name: "NotificationMail",
  tableName: "notification_mails",
  indexes: [{ properties: ["dueAt"] }],
  properties: {
    notification: () => p.manyToOne(Notification).primary().deleteRule("cascade"),
    attempts: p.integer(),
    dueAt: p.datetime(),
  },
});
