import { TrackerError, TrackerNetworkError } from "../errors.js";
import type { CallOptions, Http } from "../http.js";
import type { Schemas } from "../operation-types.js";
import { backoffDelay, sleep } from "../retry.js";
import { parseEventStream } from "../sse.js";

/**
 * One event of the workspace stream, typed by its name as the contract's `streamEvents` describes them;
 * switch on `event` and `data` has that event's shape. `id` is the last event id seen on the stream.
 *
 * - `connected`: once, when the stream opens; data `{ workspace }` (the workspace's slug).
 * - `changed`: a change; data a `ChangeEvent` (`{ entity, action, id, identifier?, teamKey?, at }`).
 * - `ping`: the heartbeat, every 25 s; data `{}`.
 * - `reset`: changes may have been missed; refetch what you show. Data `{}`.
 *
 * Events of any other name (none in this version of the contract) are skipped.
 */
export type TrackerEvent =
  | { event: "connected"; id: string | undefined; data: { workspace: string } }
  | { event: "changed"; id: string | undefined; data: Schemas["ChangeEvent"] }
  | { event: "ping"; id: string | undefined; data: Record<string, never> }
  | { event: "reset"; id: string | undefined; data: Record<string, never> };

/** The event names of the stream, as the contract lists them. */
export const STREAM_EVENTS = [
  "connected",
  "changed",
  "ping",
  "reset",
] as const satisfies readonly TrackerEvent["event"][];

const KNOWN_EVENTS: ReadonlySet<string> = new Set(STREAM_EVENTS);

export interface EventStreamOptions extends Pick<CallOptions, "headers" | "timeoutMs"> {
  /** Resume after this `changed` id (sent as `Last-Event-ID`). */
  lastEventId?: string | undefined;
  /** Aborting it ends the iteration (without an error). */
  signal?: AbortSignal | undefined;
  /**
   * A connection that delivers no bytes at all for this long, in ms, is taken as dropped and reopened
   * with `Last-Event-ID`. Default 35 000: the server's 25 s ping interval and a margin.
   */
  idleTimeoutMs?: number | undefined;
}

export interface EventStreamTuning {
  /** First reconnection delay in ms, until the server sends `retry:`. */
  reconnectDelayMs: number;
  /** Upper bound of the reconnection delay in ms. */
  maxReconnectDelayMs: number;
  /** A connection silent this long (no bytes at all) is presumed dead and reopened. */
  idleTimeoutMs: number;
}

const DEFAULT_TUNING: EventStreamTuning = {
  reconnectDelayMs: 1_000,
  maxReconnectDelayMs: 30_000,
  // The contract's "Time limits": a ping every 25 s, so a stream silent longer than that and a margin is dead.
  idleTimeoutMs: 25_000 + 10_000,
};

// Every event of the contract carries a JSON object; anything else (a proxy's injection) is not one of them.
function parseData(data: string): object | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return value !== null && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

// Worth reconnecting after: the server or the network failed, not the request itself.
function isTransient(error: unknown): boolean {
  return (
    error instanceof TrackerNetworkError ||
    (error instanceof TrackerError && (error.status === 429 || error.status >= 500))
  );
}

/** The live Server-Sent Events stream of workspace changes. */
export class EventsApi {
  private readonly tuning: EventStreamTuning;

  constructor(
    private readonly http: Http,
    tuning: Partial<EventStreamTuning> = {},
  ) {
    this.tuning = { ...DEFAULT_TUNING, ...tuning };
  }

  /**
   * Streams the workspace's changes. A dropped connection is reopened with `Last-Event-ID` (backoff
   * capped at 30 s) so no `changed` event is lost; so is a connection silent for longer than
   * `idleTimeoutMs` (35 s). An error opening the first connection, or an authentication or permission
   * error on a later one, is thrown. Ends when `signal` aborts.
   *
   * @example
   * const controller = new AbortController();
   * for await (const change of tracker.events.stream({ signal: controller.signal })) {
   *   if (change.event === "changed") console.log(change.data.entity, change.data.identifier);
   *   if (change.event === "reset") await refetchEverything();
   * }
   */
  stream(options: EventStreamOptions = {}): AsyncIterable<TrackerEvent> {
    return this.run(options);
  }

  private async *run(options: EventStreamOptions): AsyncGenerator<TrackerEvent> {
    const { signal } = options;
    const { maxReconnectDelayMs } = this.tuning;
    const idleTimeoutMs = options.idleTimeoutMs ?? this.tuning.idleTimeoutMs;
    let reconnectDelayMs = this.tuning.reconnectDelayMs;
    let lastEventId = options.lastEventId;
    let connectedBefore = false;
    let failures = 0;

    while (!signal?.aborted) {
      // One controller per connection, so a silent connection can be dropped without ending the stream.
      const connection = new AbortController();
      const connectionSignal = signal ? AbortSignal.any([signal, connection.signal]) : connection.signal;
      let idleTimer: ReturnType<typeof setTimeout> | undefined;
      const armIdleTimer = () => {
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => connection.abort(new Error("event stream idle")), idleTimeoutMs);
      };
      try {
        // Opening the connection is bound by the call's time limit (`timeoutMs`), silence after that by
        // the idle timer.
        const { data, error, response } = await this.http.raw.GET("/events", {
          parseAs: "stream",
          ...this.http.init({ signal: connectionSignal, timeoutMs: options.timeoutMs }),
          headers: {
            ...options.headers,
            Accept: "text/event-stream",
            ...(lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId }),
          },
        });
        if (!response.ok) throw TrackerError.fromResponse(response, error);
        if (!data) throw new TrackerNetworkError("The event stream answered without a body.");
        connectedBefore = true;
        armIdleTimer();
        // Any bytes, a keep-alive comment included, show the connection is alive.
        const watched = data.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              armIdleTimer();
              controller.enqueue(chunk);
            },
          }),
        );
        const events = parseEventStream(watched, {
          lastEventId,
          signal: connectionSignal,
          onRetry: (ms) => {
            reconnectDelayMs = ms;
          },
        });
        for await (const raw of events) {
          failures = 0;
          lastEventId = raw.id;
          const data = parseData(raw.data);
          if (KNOWN_EVENTS.has(raw.event) && data !== undefined)
            yield { event: raw.event, id: raw.id, data } as TrackerEvent;
        }
      } catch (error) {
        if (signal?.aborted) return;
        const droppedMidStream = connectedBefore && !(error instanceof TrackerError);
        if (!droppedMidStream && !(connectedBefore && isTransient(error))) throw error;
      } finally {
        clearTimeout(idleTimer);
        connection.abort();
      }
      const delay = Math.min(
        maxReconnectDelayMs,
        failures === 0 ? reconnectDelayMs : backoffDelay(failures, reconnectDelayMs, maxReconnectDelayMs),
      );
      failures++;
      try {
        await sleep(delay, signal);
      } catch {
        return; // aborted while waiting
      }
    }
  }
}
