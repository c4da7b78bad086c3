import type { Logger } from "../logger.js";
import { type FeedStatements, PAGE_SIZE } from "./change-feed.query.js";
import { ChangeBatch, type ChangeRow, changesAccess, toChangeRows } from "./change-row.js";
import type { EventStream } from "./event-stream.js";

/** How long to wait before checking again whether the transactions holding back events have ended. */
const SETTLE_DELAYS_MS = [2, 4, 8, 16, 32, 64, 125, 250];
const MAX_CHECKPOINTS = 16;

/**
 * Rows up to `max` were read while transactions below `horizon` might still commit an older id: once no
 * transaction below the horizon runs (a later snapshot's xmin has reached it), every event with an id up
 * to `max` is either visible or will never exist.
 */
interface Checkpoint {
  max: number;
  horizon: bigint;
}

export interface FeedHooks {
  statements: FeedStatements;
  logger: Logger;
  /** Re-reads who may see what for the feed's streams (closes those that lost access). */
  refreshAccess(feed: WorkspaceFeed): Promise<void>;
}

/**
 * The changes of one workspace, read once per notification and handed to every local stream of it, in id
 * order, with no gap.
 *
 * Ids come from a sequence when a row is inserted, but transactions commit in any order: id 41 may become
 * visible after id 42. Delivering 42 first would lose 41 for a client that resumes after 42, so the feed
 * only hands out ids up to a *settled* bound. recordChanges takes its transaction id before drawing an
 * event id, so an event id drawn before a snapshot belongs to a transaction whose id is below a fresh
 * transaction id the reader draws right after the snapshot (the horizon). Each read returns the rows after
 * the cursor with the snapshot's xmin and that horizon; the rows up to the highest id read are settled once
 * no transaction below the horizon runs any more, i.e. once a snapshot's xmin reaches it (at once when
 * nothing was running). Until then they are held and re-read a few milliseconds later. The snapshot's own
 * list of running transactions (xip) is not enough: it omits running transactions above the newest
 * completed one, and an event of such a writer would be skipped. The cursor only moves over settled ids,
 * so `id > cursor` never misses a late committer. Sequence caching must stay at 1 (the default of
 * bigserial) for this to hold.
 */
export class WorkspaceFeed {
  readonly streams = new Set<EventStream>();
  /** Every change with an id up to the cursor has been handed to the streams, in id order. */
  cursor = 0;
  closed = false;
  readonly ready: Promise<void>;
  private checkpoints: Checkpoint[] = [];
  private running = false;
  private again = false;
  private settleTimer: NodeJS.Timeout | undefined;
  private settleStep = 0;
  private failures = 0;

  constructor(
    readonly workspaceId: string,
    private readonly hooks: FeedHooks,
  ) {
    this.ready = this.init();
    // A failed start is reported to the streams waiting on `ready`; keep it from being unhandled here.
    this.ready.catch(() => undefined);
  }

  /** A notification (or a timer) says there may be new rows. Reads run one at a time per workspace. */
  poke(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.run();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.settleTimer);
  }

  /**
   * Starts at the workspace's newest event, once every transaction that might still commit an older id
   * has ended: a stream opened now then misses nothing committed after it opened.
   */
  private async init(): Promise<void> {
    const [start] = await this.hooks.statements.start(this.workspaceId);
    const horizon = BigInt(start!.horizon);
    let xmin = BigInt(start!.xmin);
    for (let step = 0; xmin < horizon && !this.closed; step++) {
      await sleep(SETTLE_DELAYS_MS[Math.min(step, SETTLE_DELAYS_MS.length - 1)]!);
      const [now] = await this.hooks.statements.xmin();
      xmin = BigInt(now!.xmin);
    }
    this.cursor = Number(start!.max);
    // Anything committed while we waited is read now.
    this.poke();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      await this.ready;
      do {
        this.again = false;
        await this.readOnce();
      } while (this.again && !this.closed);
      this.failures = 0;
    } catch (err) {
      if (!this.closed) {
        this.failures++;
        this.hooks.logger.warn("events: reading changes failed", {
          workspaceId: this.workspaceId,
          error: (err as Error).message,
        });
        // Try again soon; the cursor has not moved, so nothing is lost.
        this.again = true;
      }
    } finally {
      this.running = false;
    }
    this.scheduleSettle();
  }

  private scheduleSettle(): void {
    if (this.closed || this.settleTimer) return;
    if (this.checkpoints.length === 0 && !this.again) {
      this.settleStep = 0;
      return;
    }
    const delay =
      this.failures > 0
        ? Math.min(5_000, 100 * 2 ** this.failures)
        : SETTLE_DELAYS_MS[Math.min(this.settleStep++, SETTLE_DELAYS_MS.length - 1)]!;
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined;
      this.poke();
    }, delay);
    this.settleTimer.unref();
  }

  private async readOnce(): Promise<void> {
    // `first_gap`: the lowest id after the cursor that no workspace's visible row has (ids are dense, from
    // a sequence with cache 1). Below it nothing can still appear, whatever is running; only what follows a
    // gap (a change still being committed, or one rolled back) waits for the horizon. Over a very long range
    // the check is skipped (as if the gap were right after the cursor).
    const [res] = await this.hooks.statements.read(this.workspaceId, this.cursor);
    if (this.closed) return;
    const rows = toChangeRows(res!.rows);
    const xmin = BigInt(res!.xmin);
    const horizon = BigInt(res!.horizon);
    let bound = this.cursor;

    // The newest checkpoint whose horizon the oldest running transaction has passed settles everything up
    // to its max (and every older checkpoint, whose horizon is lower).
    for (let i = this.checkpoints.length - 1; i >= 0; i--) {
      const cp = this.checkpoints[i]!;
      if (xmin >= cp.horizon) {
        bound = Math.max(bound, cp.max);
        this.checkpoints.splice(0, i + 1);
        // Progress: under steady writes some checkpoint is always pending, so back off afresh.
        this.settleStep = 0;
        break;
      }
    }
    const max = rows.length > 0 ? rows[rows.length - 1]!.id : 0;
    if (max > bound) {
      // No transaction below our own fresh id was running when the snapshot was taken (xmin reached it, so
      // no id was even handed out between the snapshot's newest completed one and ours): the read is complete.
      if (xmin === horizon || res!.first_gap === null) bound = max;
      else {
        // Deliver the dense run below the first gap now; hold the rest until the horizon is passed.
        bound = Math.max(bound, Math.min(max, res!.first_gap - 1));
        if (max > bound && max > (this.checkpoints.at(-1)?.max ?? 0)) this.checkpoints.push({ max, horizon });
      }
      while (this.checkpoints.length > MAX_CHECKPOINTS) {
        // Merge the two oldest: waiting for the later horizon before releasing the later max is still safe.
        const [, b] = this.checkpoints.splice(0, 2) as [Checkpoint, Checkpoint];
        this.checkpoints.unshift(b);
      }
    }
    if (rows.length === PAGE_SIZE) {
      // More rows wait beyond this page: deliver within it and read again.
      bound = Math.min(bound, max);
      this.again = true;
    }
    if (this.checkpoints.length === 0) this.settleStep = 0;

    const settled = rows.filter((r) => r.id <= bound);
    await this.deliver(settled);
    this.cursor = Math.max(this.cursor, bound);
  }

  /**
   * Hands rows to the streams. Changes to memberships or teams are delivered with the access the streams
   * had, then access is re-read (once per run of such changes) before anything later goes out, so a
   * removed member receives nothing else committed after their removal. The cursor moves with each
   * delivered part: a stream that joins while access is being re-read replays exactly up to what it missed.
   */
  private async deliver(rows: ChangeRow[]): Promise<void> {
    const started = performance.now();
    let start = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const last = i === rows.length - 1;
      if (!last && !(changesAccess(row) && !changesAccess(rows[i + 1]!))) continue;
      const part = rows.slice(start, i + 1);
      start = i + 1;
      const batch = new ChangeBatch(part);
      for (const stream of this.streams) stream.deliver(batch);
      this.cursor = Math.max(this.cursor, row.id);
      if (changesAccess(row) && this.streams.size > 0) await this.hooks.refreshAccess(this);
      if (this.closed) return;
    }
    if (rows.length > 0) {
      this.hooks.logger.debug("events: delivered", {
        workspaceId: this.workspaceId,
        rows: rows.length,
        streams: this.streams.size,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
