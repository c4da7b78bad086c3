import { type Schemas, type Tracker, TrackerError } from "@tracker/sdk";
import { onConnection } from "./connection.js";
import { alreadyHeld } from "./issue-edit.js";
import { applyIssue, removeIssue } from "./issue-lists.js";
import { store } from "./store.js";

export type LiveStatus = "connecting" | "live" | "reconnecting" | "off";

type ChangeEvent = Schemas["ChangeEvent"];

/** A stream that ended and has not come back within this long shows "Offline". */
const OFFLINE_AFTER_MS = 4_000;
/** The longest wait between two attempts to reopen the stream. */
const MAX_RETRY_MS = 5_000;

/** The cache keys each kind of change can make old; issues are applied in place instead. */
const STALE_BY_ENTITY: Partial<Record<ChangeEvent["entity"], (change: ChangeEvent) => string[]>> = {
  comment: (c) => [`page:${c.identifier}`, "inbox"],
  issue_relation: (c) => [`page:${c.identifier}`, `history:${c.identifier}:`, "inbox"],
  issue_link: (c) => [`page:${c.identifier}`],
  project: (c) => ["projects:", `project:${c.id}`, "initiative", "page:"],
  initiative: (c) => ["initiatives:", `initiative:${c.id}`, "projects:"],
  cycle: (c) => [`cycles:${c.teamKey ?? ""}`],
  label: () => ["labels"],
  document: (c) => ["documents:", `document:${c.id}`],
  update: () => ["updates:"],
  view: () => ["views", "view-defaults"],
  team: () => ["teams"],
  workflow: () => ["teams"],
  member: () => ["users", "project:"],
  notification: () => ["inbox"],
  // An agent's session and each activity in it (every activity also updates its session).
  agent_session: (c) => [`agent-sessions:${c.identifier}`, `agent-session:${c.identifier}:${c.id}`],
  agent_activity: (c) => [`history:${c.identifier}:`],
};

/**
 * Follows the workspace's event stream (`GET /events`; in a browser the SDK reads it with a streaming
 * fetch, so the API key travels in `Authorization`) and applies each change to what is cached: a changed
 * issue is read once and put into every board and list (see `applyIssue`), other changes mark the few
 * keys they touch stale, so only what is on screen refetches. Bursts are batched. The SDK resumes a
 * dropped connection with `Last-Event-ID` and the server replays what was missed; a `reset` (changes
 * were missed after all) refetches everything shown.
 */
export function followEvents(tracker: Tracker, onStatus: (status: LiveStatus) => void): () => void {
  const controller = new AbortController();
  let lastEventId: string | undefined;
  let pending: ReturnType<typeof setTimeout> | undefined;
  const issues = new Map<string, ChangeEvent>();
  const stale = new Set<string>();
  let everything = false;

  const flush = () => {
    pending = undefined;
    if (everything) {
      everything = false;
      issues.clear();
      stale.clear();
      store.invalidate();
      return;
    }
    if (stale.size) store.invalidate([...stale]);
    stale.clear();
    for (const change of issues.values()) applyIssueChange(tracker, change, controller.signal);
    issues.clear();
  };
  const schedule = () => {
    pending ??= setTimeout(flush, 50);
  };
  const onChanged = (change: ChangeEvent) => {
    if (change.entity === "issue") issues.set(change.id, change);
    else for (const key of STALE_BY_ENTITY[change.entity]?.(change) ?? []) stale.add(key);
    schedule();
  };

  // The badge follows the connection, not only the stream's events: a stream that ends says
  // "Reconnecting" at once, and "Offline" when it has not come back within a few seconds or the server
  // cannot be reached at all. Then the stream is reopened here, at most 5 s apart, resuming from the last
  // id so the server replays what was missed (or says `reset`, and everything shown is fetched again).
  let connection: AbortController | undefined;
  let offlineTimer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  const goneOffline = () => {
    clearTimeout(offlineTimer);
    offlineTimer = undefined;
    onStatus("off");
  };
  let streamOpen = false;
  const stopWatching = onConnection((signal) => {
    streamOpen = signal === "stream-open" || (streamOpen && signal === "unreachable");
    if (signal === "stream-closed") {
      onStatus("reconnecting");
      offlineTimer ??= setTimeout(goneOffline, OFFLINE_AFTER_MS);
      connection?.abort();
    } else if (signal === "unreachable") {
      // One request that failed while the stream is open says less than the stream itself.
      if (streamOpen) return;
      goneOffline();
      connection?.abort();
    } else if (signal === "stream-open") {
      clearTimeout(offlineTimer);
      offlineTimer = undefined;
    }
  });
  // Back online (the browser says so): try now rather than at the end of the wait.
  const online = () => wake?.();
  window.addEventListener("online", online);

  (async () => {
    let failures = 0;
    while (!controller.signal.aborted) {
      if (failures === 0) onStatus("connecting");
      connection = new AbortController();
      try {
        const stream = tracker.events.stream({
          signal: AbortSignal.any([controller.signal, connection.signal]),
          ...(lastEventId ? { lastEventId } : {}),
        });
        for await (const { event, id, data } of stream) {
          failures = 0;
          if (id) lastEventId = id;
          if (event === "connected") onStatus("live");
          else if (event === "changed") onChanged(data as ChangeEvent);
          else if (event === "reset") {
            everything = true;
            schedule();
          }
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof TrackerError && (error.status === 401 || error.status === 403)) {
          onStatus("off");
          return;
        }
      }
      if (controller.signal.aborted) return;
      failures++;
      // Without an id to resume from, what changed meanwhile cannot be replayed: refetch what is shown.
      if (!lastEventId) everything = true;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(MAX_RETRY_MS, 500 * 2 ** Math.min(failures, 4)));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  })();

  return () => {
    clearTimeout(pending);
    clearTimeout(offlineTimer);
    stopWatching();
    window.removeEventListener("online", online);
    controller.abort();
  };
}

/** One read of the changed issue, put into every list; its page (if shown) refetches its own data. */
function applyIssueChange(tracker: Tracker, change: ChangeEvent, signal: AbortSignal): void {
  const pages = [
    `page:${change.identifier ?? change.id}`,
    `issue:${change.identifier ?? change.id}`,
    `history:${change.identifier ?? change.id}:`,
    // A change to an issue may have notified this person (the trigger of db/functions/issue-notifications.ts).
    "inbox",
  ];
  if (change.action === "deleted") {
    removeIssue(change.id);
    store.invalidate(pages);
    return;
  }
  // This page's own save, already applied from its answer: nothing to read.
  if (alreadyHeld(change.id, change.at)) return;
  tracker.issues.get(change.identifier ?? change.id, { signal }).then(
    (issue) => {
      applyIssue(issue);
      // Its project's progress (and its initiative's) counts it: their pages refetch if shown.
      const planning = issue.project
        ? [`project:${issue.project.id}`, "projects:initiative:", "initiative:"]
        : [];
      store.invalidate([...pages, `page:${issue.identifier}`, `issue:${issue.identifier}`, ...planning]);
    },
    (error: unknown) => {
      // No longer there, or no longer visible to this key.
      if (error instanceof TrackerError && (error.status === 404 || error.status === 403))
        removeIssue(change.id);
    },
  );
}
