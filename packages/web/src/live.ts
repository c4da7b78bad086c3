import { type Schemas, type Tracker, TrackerError } from "@tracker/sdk";
import { applyIssue, removeIssue } from "./issue-lists.js";
import { store } from "./store.js";

export type LiveStatus = "connecting" | "live" | "reconnecting" | "off";

type ChangeEvent = Schemas["ChangeEvent"];

/** The cache keys each kind of change can make old; issues are applied in place instead. */
const STALE_BY_ENTITY: Partial<Record<ChangeEvent["entity"], (change: ChangeEvent) => string[]>> = {
  comment: (c) => [`page:${c.identifier}`],
  issue_relation: (c) => [`page:${c.identifier}`],
  issue_link: (c) => [`page:${c.identifier}`],
  project: (c) => ["projects:", `project:${c.id}`, "initiative", "page:"],
  initiative: (c) => ["initiatives:", `initiative:${c.id}`, "projects:"],
  cycle: (c) => [`cycles:${c.teamKey ?? ""}`],
  label: () => ["labels"],
  document: (c) => ["documents:", `document:${c.id}`],
  update: () => ["updates:"],
  view: () => ["views"],
  team: () => ["teams"],
  workflow: () => ["teams"],
  member: () => ["users", "project:"],
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

  (async () => {
    let failures = 0;
    while (!controller.signal.aborted) {
      onStatus(failures === 0 ? "connecting" : "reconnecting");
      try {
        const stream = tracker.events.stream({
          signal: controller.signal,
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
      failures++;
      onStatus("reconnecting");
      // Without an id to resume from, what changed meanwhile cannot be replayed: refetch what is shown.
      if (!lastEventId) everything = true;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(30_000, 1_000 * 2 ** Math.min(failures, 5))),
      );
    }
  })();

  return () => {
    clearTimeout(pending);
    controller.abort();
  };
}

/** One read of the changed issue, put into every list; its page (if shown) refetches its own data. */
function applyIssueChange(tracker: Tracker, change: ChangeEvent, signal: AbortSignal): void {
  const pages = [`page:${change.identifier ?? change.id}`, `issue:${change.identifier ?? change.id}`];
  if (change.action === "deleted") {
    removeIssue(change.id);
    store.invalidate(pages);
    return;
  }
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
