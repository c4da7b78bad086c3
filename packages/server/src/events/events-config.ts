/** Tuning of the live event stream (GET /events), read from the environment when the server starts. */
export interface EventsConfig {
  /** `ping` event interval (TRACKER_EVENTS_PING_MS, default 25 s as the contract says). */
  pingMs: number;
  /** Comment-line interval that keeps idle proxies from closing the connection (TRACKER_EVENTS_KEEPALIVE_MS, 15 s). */
  keepAliveMs: number;
  /** The `retry:` reconnection hint sent when a stream opens (TRACKER_EVENTS_RETRY_MS, 2 s). */
  retryMs: number;
  /** Change events are kept at least this long for resuming (TRACKER_EVENTS_RETENTION_HOURS, 24). */
  retentionHours: number;
  /** How often one instance prunes older events (TRACKER_EVENTS_PRUNE_INTERVAL_MS, 10 min; 0 turns it off). */
  pruneIntervalMs: number;
  /**
   * A stream whose unsent output passes this many bytes is too far behind and is closed; the client
   * resumes by id (TRACKER_EVENTS_MAX_BUFFER_BYTES, 256 KiB).
   */
  maxBufferBytes: number;
  /** A closed stream's socket is destroyed after this long if its last bytes cannot be flushed. */
  closeGraceMs: number;
}

export const DEFAULT_EVENTS_CONFIG: EventsConfig = {
  pingMs: 25_000,
  keepAliveMs: 15_000,
  retryMs: 2_000,
  retentionHours: 24,
  pruneIntervalMs: 10 * 60_000,
  maxBufferBytes: 256 * 1024,
  closeGraceMs: 5_000,
};

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number, allowZero = false): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !allowZero))
    throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}

export function loadEventsConfig(env: NodeJS.ProcessEnv = process.env): EventsConfig {
  const d = DEFAULT_EVENTS_CONFIG;
  return {
    pingMs: positive(env, "TRACKER_EVENTS_PING_MS", d.pingMs),
    keepAliveMs: positive(env, "TRACKER_EVENTS_KEEPALIVE_MS", d.keepAliveMs),
    retryMs: positive(env, "TRACKER_EVENTS_RETRY_MS", d.retryMs),
    retentionHours: positive(env, "TRACKER_EVENTS_RETENTION_HOURS", d.retentionHours),
    pruneIntervalMs: positive(env, "TRACKER_EVENTS_PRUNE_INTERVAL_MS", d.pruneIntervalMs, true),
    maxBufferBytes: positive(env, "TRACKER_EVENTS_MAX_BUFFER_BYTES", d.maxBufferBytes),
    closeGraceMs: positive(env, "TRACKER_EVENTS_CLOSE_GRACE_MS", d.closeGraceMs),
  };
}
