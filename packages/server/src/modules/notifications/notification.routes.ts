import { handle, inWorkspace, type RequestScope } from "../../http/handler.js";
import {
  getSubscription,
  listNotifications,
  markNotificationsRead,
  setSubscription,
} from "./notification.query.js";
import { emailSetting, type NotificationEmail, setEmailSetting } from "./notification-settings.query.js";

/** The inbox (`/my/notifications`) and following issues (`/issues/{identifier}/subscription`). */
export const notificationHandlers = [
  handle("listNotifications", async (s, { query }) => ({
    status: 200,
    body: await listNotifications(inWorkspace(s), {
      unread: query.unread === "true",
      limit: query.limit === undefined ? 50 : Number(query.limit),
    }),
  })),
  handle("markNotificationsRead", async (s, { body }) => ({
    status: 200,
    body: await markNotificationsRead(inWorkspace(s), body),
  })),
  handle("getNotificationSettings", async (s) => ({
    status: 200,
    body: { settings: settingsOf(s, await emailSetting(s.em, s.caller!.userId)) },
  })),
  handle("putNotificationSettings", async (s, { body }) => {
    await setEmailSetting(s.em, s.caller!.userId, body.email);
    return { status: 200, body: { settings: settingsOf(s, body.email) } };
  }),
  handle("getIssueSubscription", async (s, { params }) => ({
    status: 200,
    body: await getSubscription(inWorkspace(s), params.identifier),
  })),
  handle("subscribeIssue", async (s, { params }) => ({
    status: 200,
    body: await setSubscription(inWorkspace(s), params.identifier, true),
  })),
  handle("unsubscribeIssue", async (s, { params }) => ({
    status: 200,
    body: await setSubscription(inWorkspace(s), params.identifier, false),
  })),
];

/** The contract's `NotificationSettings`: the person's choice and what the deployment offers. */
function settingsOf(s: RequestScope, email: NotificationEmail) {
  return {
    email,
    emailAvailable: Boolean(s.config.smtpUrl),
    digestHour: s.config.notificationMail.digestHour,
  };
}
