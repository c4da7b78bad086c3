import type Koa from "koa";
import pg from "pg";
import type { Orm } from "../db/orm.js";
import type { WorkspaceScope } from "../http/handler.js";
import { HttpProblem } from "../http/problem.js";
import type { Logger } from "../logger.js";
import type { StreamAccess } from "../rules/visibility.js";
import {
  type FeedStatements,
  feedStatements,
  PAGE_SIZE,
  PRUNE_BATCH,
  pruneBatch,
} from "./change-feed.query.js";
import { toChangeRows } from "./change-row.js";
import { type CloseReason, EventStream, openEventStreamHead } from "./event-stream.js";
import type { EventsConfig } from "./events-config.js";
import { ACCESS_CHANNEL, CHANGE_CHANNEL } from "./record-change.query.js";
import { WorkspaceFeed } from "./workspace-feed.js";

/** A client leaving mid-stream resets the connection all the time: not an error worth Koa's stack trace. */
function quietReset(err: NodeJS.ErrnoException): void {
  if (err.code === "ECONNRESET" || err.code === "EPIPE") Object.assign(err, { expose: true });
}

/** Any constant will do; it only has to be the same for every instance. */
const MAX_PENDING_ROWS = 10_000;
/** Heartbeats, encoded once and written to every stream in one sweep per interval. */
const PING = Buffer.from("event: ping\ndata: {}\n\n");
const KEEP_ALIVE = Buffer.from(": keep-alive\n\n");
/** A replay waits this long for a client to read what it was sent before giving up on it. */
const REPLAY_DRAIN_TIMEOUT_MS = 30_000;

export interface EventHubDeps {
  orm: Orm;
  databaseUrl: string;
  logger: Logger;
  config: EventsConfig;
}

/**
 * The live event stream of one server instance. It holds one dedicated PostgreSQL connection that
 * LISTENs for `tracker_changes` (payload: workspace id, sent by recordChanges on commit) and
 * `tracker_access` (a key was deleted), reconnecting when it drops and then catching every workspace
 * feed up from its cursor. Each workspace with local streams has one feed, which reads the new rows once
 * per notification and fans them out in process; instances share nothing but the database.
 */
export class EventHub {
  private readonly feeds = new Map<string, WorkspaceFeed>();
  private listener: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelay = 250;
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private readonly statements: FeedStatements;

  constructor(private readonly deps: EventHubDeps) {
    this.statements = feedStatements(() => deps.orm.em.fork());
  }

  async start(): Promise<void> {
    await this.listen();
    const { pingMs, keepAliveMs, pruneIntervalMs } = this.deps.config;
    this.every(pingMs, () => {
      for (const feed of this.feeds.values()) {
        for (const stream of feed.streams) stream.write(PING);
        // A safety net: a notification lost with a dropped connection is made up for within one ping.
        feed.poke();
      }
    });
    this.every(keepAliveMs, () => {
      for (const feed of this.feeds.values()) for (const stream of feed.streams) stream.write(KEEP_ALIVE);
    });
    if (pruneIntervalMs > 0) {
      const prune = () => {
        this.prune().catch((err) =>
          this.deps.logger.warn("events: pruning failed", { error: (err as Error).message }),
        );
      };
      this.every(pruneIntervalMs, prune);
      // Also once soon after start, so instances restarted more often than the interval still prune.
      const first = setTimeout(prune, Math.min(60_000, pruneIntervalMs));
      first.unref();
      this.timers.push(first);
    }
  }

  /** Ends every stream (clients reconnect elsewhere with Last-Event-ID) and the LISTEN connection. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    clearTimeout(this.reconnectTimer);
    this.closeStreams("shutdown");
    for (const feed of this.feeds.values()) feed.close();
    this.feeds.clear();
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  /** Open streams and workspace feeds on this instance. */
  stats(): { streams: number; feeds: number; listening: boolean } {
    let streams = 0;
    for (const feed of this.feeds.values()) streams += feed.streams.size;
    return { streams, feeds: this.feeds.size, listening: this.listener !== undefined };
  }

  /**
   * Serves one GET /events request; resolves once the stream is open (the response head sent). The
   * stream then lives on its socket alone: the request's EntityManager, scope and middleware frames are
   * released, which is most of what an open stream weighed (bench/README.md, "Live events at 10,000
   * streams").
   */
  async serve(scope: WorkspaceScope): Promise<void> {
    if (this.stopped) {
      throw new HttpProblem(
        503,
        "service_unavailable",
        "Unavailable",
        "The server is shutting down; reconnect.",
      );
    }
    const { koa: ctx, workspace, caller } = scope;
    const lastEventId = ctx.get("last-event-id").trim();
    const [access] = await this.loadAccess(workspace.id, [caller.userId]);
    if (!access)
      throw new HttpProblem(403, "workspace_forbidden", "Forbidden", "Not a member of this workspace.");

    const feed = this.feedFor(workspace.id);
    const stream = new EventStream(
      ctx.res,
      workspace.id,
      { ...access, keyId: caller.keyId, role: workspace.role },
      {
        maxBufferBytes: this.deps.config.maxBufferBytes,
        retryMs: this.deps.config.retryMs,
        closeGraceMs: this.deps.config.closeGraceMs,
        maxPendingRows: MAX_PENDING_ROWS,
      },
      (s, reason) => this.detach(s, reason),
    );
    // Joined before the feed's cursor is read: every change after that cursor reaches this stream.
    feed.streams.add(stream);
    try {
      await feed.ready;
    } catch (err) {
      stream.close("error");
      throw err;
    }
    ctx.respond = false;
    if (stream.closed) return; // the client left while the feed started
    const socket = ctx.req.socket;
    socket.setTimeout(0);
    socket.setNoDelay(true);
    socket.setKeepAlive(true);
    socket.prependListener("error", quietReset);
    openEventStreamHead(ctx.res);
    stream.opened = true;
    stream.write(`retry: ${this.deps.config.retryMs}\n\n`);

    const { requestId } = scope;
    this.open(stream, feed, workspace.slug, lastEventId).catch((err) => {
      this.deps.logger.warn("events: stream failed", { requestId, error: (err as Error).message });
      stream.close("error");
    });
  }

  /**
   * `connected`, then either the changes after `Last-Event-ID` up to the feed's cursor (those after it
   * arrive live), or `reset` when that id is no longer kept.
   */
  private async open(stream: EventStream, feed: WorkspaceFeed, slug: string, lastEventId: string) {
    const data = JSON.stringify({ workspace: slug });
    const connected = `event: connected\ndata: ${data}\n\n`;
    if (lastEventId === "") {
      // The cursor as id: a client that drops before any change resumes from here and misses nothing.
      const cursor = feed.cursor;
      stream.write(`event: connected\nid: ${cursor}\ndata: ${data}\n\n`);
      stream.goLive(cursor);
      return;
    }
    const after = /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : undefined;
    // Before anything is awaited: the stream is already in its feed, whose pings must come after it.
    stream.write(connected);
    const kept = after !== undefined && (await this.isKept(feed.workspaceId, after));
    if (stream.closed) return;
    if (!kept) {
      const cursor = feed.cursor;
      stream.write(`event: reset\nid: ${cursor}\ndata: {}\n\n`);
      stream.goLive(cursor);
      return;
    }
    stream.lastSent = after;
    const until = feed.cursor;
    let from = after;
    while (from < until && !stream.closed) {
      const [res] = await this.statements.replay(feed.workspaceId, from, until);
      const rows = toChangeRows(res!.rows);
      stream.replay(rows);
      if (rows.length < PAGE_SIZE) break;
      from = rows[rows.length - 1]!.id;
      // Backpressure: read the next page only once the client has taken most of this one.
      const ok = await stream.waitBelow(this.deps.config.maxBufferBytes / 2, REPLAY_DRAIN_TIMEOUT_MS);
      if (!ok) stream.close("slow");
    }
    stream.goLive(until);
  }

  /**
   * Whether the changes after `id` are all still kept. Only pruning deletes events, so the event itself
   * being there says so. Id 0 (a stream opened on a workspace without events) is fine while the
   * workspace is younger than the retention.
   */
  private async isKept(workspaceId: string, id: number): Promise<boolean> {
    const [row] = await this.statements.kept(workspaceId, id, this.deps.config.retentionHours);

    return row?.kept === true;
  }

  /**
   * Deletes events older than the retention, in short batches (a long delete would hold back every
   * feed, see workspace-feed.ts). Each batch takes a transaction-level advisory lock, so instances never
   * prune at the same time; an instance that finds it taken leaves the round to the other.
   */
  async prune(): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.deps.orm.em
        .fork()
        .transactional((em) => pruneBatch(em, this.deps.config.retentionHours));

      if (deleted < 0) break;
      total += deleted;
      if (deleted < PRUNE_BATCH || this.stopped) break;
    }
    if (total > 0) this.deps.logger.info("events: pruned", { deleted: total });
    return total;
  }

  /** For the app: the hub serving this Koa application's streams. */
  static attach(app: Koa, hub: EventHub): void {
    hubs.set(app, hub);
  }

  static of(app: Koa): EventHub | undefined {
    return hubs.get(app);
  }

  private feedFor(workspaceId: string): WorkspaceFeed {
    let feed = this.feeds.get(workspaceId);
    if (!feed) {
      const created = new WorkspaceFeed(workspaceId, {
        statements: this.statements,
        logger: this.deps.logger,
        refreshAccess: (f) => this.refreshAccess(f),
      });
      feed = created;
      this.feeds.set(workspaceId, created);
      created.ready.catch((err) => {
        this.deps.logger.warn("events: starting a workspace feed failed", {
          workspaceId,
          error: (err as Error).message,
        });
        if (this.feeds.get(workspaceId) === created) this.feeds.delete(workspaceId);
        created.close();
      });
    }
    return feed;
  }

  private detach(stream: EventStream, reason: CloseReason): void {
    const feed = this.feeds.get(stream.workspaceId);
    if (!feed) return;
    feed.streams.delete(stream);
    if (reason !== "client" && reason !== "shutdown") {
      this.deps.logger.info("events: stream closed by the server", {
        workspaceId: stream.workspaceId,
        reason,
        lastSent: stream.lastSent,
      });
    }
    if (feed.streams.size === 0) {
      feed.close();
      this.feeds.delete(stream.workspaceId);
    }
  }

  private async loadAccess(workspaceId: string, userIds: string[]): Promise<Omit<StreamAccess, "keyId">[]> {
    const rows = await this.statements.access(workspaceId, userIds);

    return rows.map((r) => ({ userId: r.userId, role: r.role, teams: new Set(r.teams) }));
  }

  /** Re-reads memberships, roles, team memberships and keys of a feed's streams; closes those cut off. */
  private async refreshAccess(feed: WorkspaceFeed): Promise<void> {
    const streams = [...feed.streams];
    if (streams.length === 0) return;
    const users = [...new Set(streams.map((s) => s.access.userId))];
    const keys = [...new Set(streams.map((s) => s.access.keyId))];
    const [access, liveKeys] = await Promise.all([
      this.loadAccess(feed.workspaceId, users),
      this.existingKeys(keys),
    ]);
    const byUser = new Map(access.map((a) => [a.userId, a]));
    for (const stream of streams) {
      const now = byUser.get(stream.access.userId);
      if (!now) stream.close("revoked");
      else if (!liveKeys.has(stream.access.keyId)) stream.close("key_deleted");
      else stream.access = { ...now, keyId: stream.access.keyId };
    }
  }

  private async existingKeys(keyIds: string[]): Promise<Set<string>> {
    const rows = await this.statements.existingKeys(keyIds);

    return new Set(rows.map((r) => r.id));
  }

  private async closeDeletedKey(keyId: string): Promise<void> {
    const streams = [...this.feeds.values()].flatMap((f) =>
      [...f.streams].filter((s) => s.access.keyId === keyId),
    );
    if (streams.length === 0) return;
    if ((await this.existingKeys([keyId])).has(keyId)) return;
    for (const stream of streams) stream.close("key_deleted");
  }

  /**
   * Closes every stream opened with an access token of the grant one of whose tokens was just revoked:
   * a stream does not know which of its grant's tokens opened it, so all go, and a client whose token
   * still holds reconnects and resumes (its next request is checked as every request is).
   */
  private closeRevokedGrant(keyId: string): void {
    for (const feed of this.feeds.values())
      for (const stream of [...feed.streams])
        if (stream.access.keyId === keyId) stream.close("token_revoked");
  }

  private onNotification(channel: string, payload: string | undefined): void {
    if (!payload) return;
    if (channel === CHANGE_CHANNEL) {
      this.feeds.get(payload)?.poke();
    } else if (channel === ACCESS_CHANNEL && payload.startsWith("key:")) {
      this.closeDeletedKey(payload.slice(4)).catch((err) =>
        this.deps.logger.warn("events: checking a deleted key failed", { error: (err as Error).message }),
      );
    } else if (channel === ACCESS_CHANNEL && payload.startsWith("grant:")) {
      this.closeRevokedGrant(payload.slice(6));
    }
  }

  /** Opens the dedicated LISTEN connection; on reconnect, every feed catches up from its cursor. */
  private async listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.deps.databaseUrl,
      application_name: "tracker-events",
      keepAlive: true,
    });
    client.on("notification", (msg) => this.onNotification(msg.channel, msg.payload));
    client.on("error", (err) => this.lost(client, err));
    client.on("end", () => this.lost(client));
    await client.connect();
    try {
      await client.query(`listen ${CHANGE_CHANNEL}; listen ${ACCESS_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
    this.reconnectDelay = 250;
    for (const feed of this.feeds.values()) feed.poke();
  }

  private lost(client: pg.Client, err?: Error): void {
    if (this.listener !== client) return;
    this.listener = undefined;
    client.end().catch(() => undefined);
    if (this.stopped) return;
    this.deps.logger.warn("events: LISTEN connection lost; reconnecting", { error: err?.message });
    // At once: when only the connection dropped, the streams carry on and the feeds catch up. When the
    // database itself is away, the streams are closed with a retry hint instead of going silent, so
    // clients know to resume by Last-Event-ID once it is back (the contract's "Availability").
    this.listen().catch((reconnectErr) => {
      this.closeStreams("unavailable");
      this.deps.logger.warn("events: LISTEN reconnect failed", { error: (reconnectErr as Error).message });
      this.scheduleReconnect();
    });
  }

  private closeStreams(reason: CloseReason): void {
    for (const feed of [...this.feeds.values()]) for (const stream of [...feed.streams]) stream.close(reason);
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(5_000, this.reconnectDelay * 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.listen().catch((err) => {
        this.deps.logger.warn("events: LISTEN reconnect failed", { error: (err as Error).message });
        this.scheduleReconnect();
      });
    }, delay);
    this.reconnectTimer.unref();
  }

  private every(ms: number, fn: () => void): void {
    const timer = setInterval(fn, ms);
    timer.unref();
    this.timers.push(timer);
  }
}

const hubs = new WeakMap<Koa, EventHub>();
