import pg from "pg";
import { WEBHOOK_CHANNEL } from "../../db/functions/webhook-outbox.js";
import type { Orm } from "../../db/orm.js";
import { recordChanges } from "../../events/record-change.query.js";
import type { Logger } from "../../logger.js";
import { secretBox } from "../codehost/secret-box.js";
import * as db from "./webhook.query.js";
import { signedHeaders } from "./webhook-signature.js";
import { send } from "./webhook-target.js";
import type { WebhooksConfig } from "./webhooks-config.js";

export interface DispatcherDeps {
  orm: Orm;
  databaseUrl: string;
  logger: Logger;
  config: WebhooksConfig;
  dataDir: string;
}

/** Successful attempts recorded in one statement once this many wait (or at the next turn of the loop). */
const SUCCESS_BATCH = 200;

/**
 * Sends the outbox (`webhook_deliveries`, filled by the trigger on `change_events` in each change's own
 * transaction; db/functions/webhook-outbox.ts). Every instance runs one: it claims due deliveries
 * (`claimDue`: leased, SKIP LOCKED, so instances share the work and a delivery is sent by one at a time),
 * sends each signed as Standard Webhooks says, and records the attempt. A NOTIFY on `tracker_webhooks` from
 * the trigger wakes it at once; a poll finds retries as they fall due and makes up for a lost notification.
 * An instance killed mid-attempt leaves its claims leased; they are due again when the lease runs out, so
 * every committed change is delivered at least once.
 *
 * Round trips are what limit it, so they are shared: claims take every free slot at once (waiting for a
 * few slots to free up rather than claiming one by one), and successes are recorded in batches. At most a
 * quarter of the slots go to one endpoint, so a slow endpoint cannot hold up the others.
 */
export class WebhookDispatcher {
  private listener: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private running = false;
  private again = false;
  private scheduled = false;
  private readonly inFlight = new Map<string, number>();
  private total = 0;
  private succeeded: { claimed: db.ClaimedDelivery; result: db.AttemptResult }[] = [];
  private flushing: Promise<void> | undefined;
  private readonly idle = new Set<() => void>();
  private readonly perEndpoint: number;
  private readonly signers = new Map<string, string | undefined>();

  constructor(private readonly deps: DispatcherDeps) {
    this.perEndpoint = Math.max(1, Math.floor(deps.config.concurrency / 4));
  }

  async start(): Promise<void> {
    await this.listen().catch((err) =>
      this.deps.logger.warn("webhooks: cannot listen yet; polling", { error: (err as Error).message }),
    );
    this.timer = setInterval(() => this.wake(), this.deps.config.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops claiming; attempts under way finish (for at most `waitMs`), the rest are due again elsewhere. */
  async stop(waitMs = 2_000): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.reconnectTimer);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    if (this.total > 0)
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, waitMs);
        this.idle.add(() => {
          clearTimeout(t);
          resolve();
        });
      });
    await this.flush().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.deps.databaseUrl });
    client.on("error", () => undefined);
    client.on("end", () => {
      if (this.listener !== client || this.stopped) return;
      this.listener = undefined;
      this.reconnectTimer = setTimeout(() => {
        this.listen().catch(() => undefined);
      }, 1_000);
      this.reconnectTimer.unref();
    });
    client.on("notification", () => this.wake());
    await client.connect();
    await client.query(`listen ${WEBHOOK_CHANNEL}`);
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
    this.wake();
  }

  /** Claims and starts what is due, one claim at a time; a wake while claiming claims again after. */
  private wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.claimAndSend()
      .catch((err) => this.deps.logger.warn("webhooks: claiming failed", { error: (err as Error).message }))
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** A wake at the next turn of the event loop, so that attempts finishing together share one claim. */
  private wakeSoon(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush()
        .catch((err) =>
          this.deps.logger.warn("webhooks: recording failed", { error: (err as Error).message }),
        )
        .finally(() => this.wake());
    });
  }

  private async claimAndSend(): Promise<void> {
    const { config, orm } = this.deps;
    for (;;) {
      const free = config.concurrency - this.total;
      // Claim for several free slots at once, unless nothing is under way.
      if (this.stopped || free <= 0 || (this.total > 0 && free < Math.min(8, config.concurrency / 4))) return;
      const busy = [...this.inFlight].filter(([, n]) => n >= this.perEndpoint).map(([id]) => id);
      const claimed = await db.claimDue(orm.em.fork(), {
        limit: free,
        perEndpoint: this.perEndpoint,
        busy,
        // Past an attempt's time limit, with room for recording its result: a claim outlives its attempt.
        leaseMs: config.timeoutMs * 2 + 5_000,
      });
      for (const delivery of claimed) this.attempt(delivery);
      if (claimed.length < free) return;
    }
  }

  private attempt(delivery: db.ClaimedDelivery): void {
    this.total++;
    this.inFlight.set(delivery.endpointId, (this.inFlight.get(delivery.endpointId) ?? 0) + 1);
    this.sendOne(delivery)
      .catch((err) =>
        this.deps.logger.warn("webhooks: recording an attempt failed", {
          delivery: delivery.id,
          error: (err as Error).message,
        }),
      )
      .finally(() => {
        this.total--;
        const n = (this.inFlight.get(delivery.endpointId) ?? 1) - 1;
        if (n > 0) this.inFlight.set(delivery.endpointId, n);
        else this.inFlight.delete(delivery.endpointId);
        if (this.total === 0) for (const resolve of this.idle) resolve();
        this.wakeSoon();
      });
  }

  /** The endpoint's secret, opened once per sealed value. */
  private secretOf(sealed: string): string | undefined {
    if (!this.signers.has(sealed)) {
      if (this.signers.size > 10_000) this.signers.clear();
      this.signers.set(sealed, secretBox(this.deps.dataDir).open(sealed));
    }
    return this.signers.get(sealed);
  }

  /** Records the successes waiting, in one statement. */
  private flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.succeeded.length === 0) return Promise.resolve();
    const batch = this.succeeded;
    this.succeeded = [];
    this.flushing = db.recordSuccesses(this.deps.orm.em.fork(), batch).finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async sendOne(delivery: db.ClaimedDelivery): Promise<void> {
    const { config, orm, logger } = this.deps;
    const secret = this.secretOf(delivery.secretSealed);
    const result = secret
      ? await send(
          delivery.url,
          signedHeaders(secret, delivery.messageId, delivery.payload),
          delivery.payload,
          {
            timeoutMs: config.timeoutMs,
            allowPrivate: config.allowPrivate,
          },
        )
      : {
          status: null,
          bodyPrefix: null,
          durationMs: 0,
          error: "the secret cannot be read with this server's secrets key",
        };
    const attempt: db.AttemptResult = {
      responseStatus: result.status,
      responseBodyPrefix: result.bodyPrefix,
      durationMs: result.durationMs,
      error: result.error,
    };
    if (result.status !== null && result.status >= 200 && result.status < 300) {
      this.succeeded.push({ claimed: delivery, result: attempt });
      if (this.succeeded.length >= SUCCESS_BATCH) await this.flush();
      return;
    }
    const wait = config.retryMs[Math.min(delivery.attempts - 1, config.retryMs.length - 1)]!;
    const retryAt = Date.now() + wait * (0.9 + Math.random() * 0.2);
    const giveUp = retryAt > delivery.createdAtMs + config.giveUpMs;
    await orm.em.fork().transactional(async (tx) => {
      const { failingTooLong } = await db.recordFailure(
        tx,
        delivery,
        attempt,
        giveUp ? null : new Date(retryAt),
        config.giveUpMs,
      );
      if (!failingTooLong) return;
      const hours = Math.round((config.giveUpMs / 3_600_000) * 10) / 10;
      const disabled = await db.disableEndpoint(
        tx,
        delivery.endpointId,
        `every attempt failed for ${hours} h (last: ${result.error ?? `HTTP ${result.status}`})`,
      );
      if (disabled) {
        logger.warn("webhooks: endpoint disabled after failing too long", { endpoint: delivery.endpointId });
        await recordChanges(tx, delivery.workspaceId, [
          { entity: "webhook", action: "updated", id: delivery.endpointId },
        ]);
      }
    });
  }
}
