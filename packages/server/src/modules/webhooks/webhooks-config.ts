import { outboundAllowsPrivate } from "../../net/outbound-guard.js";

/** Tuning of outbound webhooks, read from the environment (README, "Integrations"). */
export interface WebhooksConfig {
  /**
   * Private, loopback and link-local targets are allowed: `TRACKER_OUTBOUND_ALLOW_PRIVATE=1` (every
   * outbound request, `net/outbound-guard.ts`), or `TRACKER_WEBHOOKS_ALLOW_PRIVATE=1` (webhooks alone).
   */
  allowPrivate: boolean;
  /** One attempt's time limit (`TRACKER_WEBHOOKS_TIMEOUT_MS`, 10 s). */
  timeoutMs: number;
  /** Waits between attempts, the last repeated (`TRACKER_WEBHOOKS_RETRY_MS`, comma-separated). */
  retryMs: number[];
  /**
   * A delivery is given up this long after it was queued, and an endpoint failing without a success this
   * long is disabled (`TRACKER_WEBHOOKS_GIVE_UP_MS`, 24 h).
   */
  giveUpMs: number;
  /** Attempts in flight on this instance (`TRACKER_WEBHOOKS_CONCURRENCY`, 64), at most a quarter of them to one endpoint. */
  concurrency: number;
  /** Due retries are looked for this often; new deliveries wake the dispatcher at once (`TRACKER_WEBHOOKS_POLL_MS`, 1 s). */
  pollMs: number;
  /** `TRACKER_WEBHOOKS=0` runs no dispatcher on this instance (others still send). */
  dispatch: boolean;
}

/** About 5 s, 5 min, 30 min, 2 h, 5 h, 10 h: with the first attempt, 24 hours of retries. */
const DEFAULT_RETRY_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000];

function number(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min)
    throw new Error(`${name} must be a number of at least ${min}, got "${raw}"`);
  return n;
}

export function loadWebhooksConfig(env: NodeJS.ProcessEnv = process.env): WebhooksConfig {
  const retry = env.TRACKER_WEBHOOKS_RETRY_MS;
  const retryMs = retry ? retry.split(",").map((x) => Number(x.trim())) : DEFAULT_RETRY_MS;
  if (retryMs.length === 0 || retryMs.some((n) => !Number.isFinite(n) || n < 0))
    throw new Error(`TRACKER_WEBHOOKS_RETRY_MS must be comma-separated milliseconds, got "${retry}"`);
  return {
    allowPrivate:
      outboundAllowsPrivate(env) ||
      env.TRACKER_WEBHOOKS_ALLOW_PRIVATE === "1" ||
      env.TRACKER_WEBHOOKS_ALLOW_PRIVATE === "true",
    timeoutMs: number(env, "TRACKER_WEBHOOKS_TIMEOUT_MS", 10_000),
    retryMs,
    giveUpMs: number(env, "TRACKER_WEBHOOKS_GIVE_UP_MS", 24 * 3600_000),
    concurrency: number(env, "TRACKER_WEBHOOKS_CONCURRENCY", 64),
    pollMs: number(env, "TRACKER_WEBHOOKS_POLL_MS", 1_000),
    dispatch: env.TRACKER_WEBHOOKS !== "0",
  };
}
