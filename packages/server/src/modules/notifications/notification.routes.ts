import { handle, inWorkspace } from "../../http/handler.js";
import {
  getSubscription,
  listNotifications,
  markNotificationsRead,
  setSubscription,
} from "./notification.query.js";

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
