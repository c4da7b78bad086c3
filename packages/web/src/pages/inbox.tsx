import type { Schemas } from "@tracker/sdk";
import { useState } from "react";
import { useApp } from "../app-context.js";
import { describeEvent } from "../components/history.js";
import { ErrorNote } from "../components/widgets.js";
import { Link, useTitle } from "../router.js";
import { describeError } from "../session.js";
import { store, useData } from "../store.js";

type Notification = Schemas["Notification"];
type Inbox = { notifications: Notification[]; unreadCount: number };

/** The cache key of the inbox; the live stream marks it stale on every issue or comment change (live.ts). */
export const INBOX_KEY = "inbox";

const REASON: Record<Notification["reason"], string> = {
  mentioned: "mentioned you",
  assigned: "assigned to you",
  created: "you created it",
  subscribed: "you follow it",
  delegated: "delegated to you",
};

/** The sidebar's count of unread notifications, shown only when there are some. */
export function UnreadBadge() {
  const { tracker } = useApp();
  const inbox = useData<Inbox>(INBOX_KEY, () => tracker.inbox.list({ limit: 100 }));
  const n = inbox.data?.unreadCount ?? 0;
  return n > 0 ? (
    <span className="badge unread-badge" title={`${n} unread`}>
      {n}
      <span className="sr-only"> unread</span>
    </span>
  ) : null;
}

/**
 * `GET /my/notifications`: changes by others to issues the person created, is assigned to or follows,
 * and comments mentioning them; unread ones first in weight, marked read when opened or all at once.
 */
export function InboxPage() {
  const { tracker, ws, notify } = useApp();
  useTitle("Inbox");
  const [unreadOnly, setUnreadOnly] = useState(false);
  const inbox = useData<Inbox>(INBOX_KEY, () => tracker.inbox.list({ limit: 100 }));
  const mark = async (body: { ids?: string[] }) => {
    try {
      await tracker.inbox.markRead(body);
      store.invalidate([INBOX_KEY]);
    } catch (err) {
      notify(`Not marked read: ${describeError(err)}`, "error");
    }
  };
  const shown = (inbox.data?.notifications ?? []).filter((n) => !unreadOnly || n.readAt === null);
  return (
    <div className="page inbox-page">
      <div className="row">
        <h1>Inbox</h1>
        <span className="muted">{inbox.data ? `${inbox.data.unreadCount} unread` : ""}</span>
      </div>
      <div className="row">
        <label className="check">
          <input type="checkbox" checked={unreadOnly} onChange={(e) => setUnreadOnly(e.target.checked)} />
          Unread only
        </label>
        <button type="button" onClick={() => mark({})} disabled={!inbox.data?.unreadCount}>
          Mark all read
        </button>
      </div>
      <ErrorNote error={inbox.error} />
      {inbox.data && shown.length === 0 && <p className="empty">Nothing here.</p>}
      <ol className="inbox" aria-label="Notifications">
        {shown.map((n) => (
          <li key={n.id} className={n.readAt ? "notification" : "notification unread"}>
            <Link
              to={`/${ws}/issue/${n.event.issue.identifier}`}
              onClick={() => {
                if (!n.readAt) void mark({ ids: [n.id] });
              }}
            >
              {n.event.issue.identifier} {n.event.issue.title}
            </Link>
            <div>
              <span className="history-actor">{n.event.actor?.name ?? "Automation"}</span>{" "}
              {describeEvent(n.event)}{" "}
              <span className="muted">
                · {REASON[n.reason]} ·{" "}
                <time dateTime={n.createdAt}>{new Date(n.createdAt).toLocaleString()}</time>
                {n.readAt ? "" : " · unread"}
              </span>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
