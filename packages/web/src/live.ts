import { type Schemas, type Tracker, TrackerError } from "@tracker/sdk";
import { store } from "./store.js";

export type LiveStatus = "connecting" | "live" | "reconnecting" | "off";

/**
 * Follows the workspace's event stream (`GET /events`; in a browser the SDK reads it with a streaming
 * fetch, so the API key travels in `Authorization`) and marks what is cached stale when something
 * changes, batching bursts. The SDK resumes a dropped connection with `Last-Event-ID`; when it gives up
 * (the first connection failed), this loop opens a new stream from the last id seen. A `reset` (changes
 * were missed) refetches everything shown.
 */
export function followEvents(
  tracker: Tracker,
  onStatus: (status: LiveStatus) => void,
  onChange?: (change: Schemas["ChangeEvent"]) => void,
): () => void {
  const controller = new AbortController();
  let lastEventId: string | undefined;
  let pending: ReturnType<typeof setTimeout> | undefined;
  const refresh = () => {
    clearTimeout(pending);
    pending = setTimeout(() => store.invalidate(), 50);
  };

  (async () => {
    let failures = 0;
    let connectedBefore = false;
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
          if (event === "connected") {
            onStatus("live");
            // On a reconnection, whatever changed while the stream was down is refetched.
            if (connectedBefore) refresh();
            connectedBefore = true;
          } else if (event === "changed") {
            onChange?.(data as Schemas["ChangeEvent"]);
            refresh();
          } else if (event === "reset") refresh();
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
