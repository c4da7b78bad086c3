import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { type StreamAccess, seesChange, seesEveryTeam } from "../rules/visibility.js";
import { type ChangeBatch, type ChangeRow, changedFrame } from "./change-row.js";

/** Why the server ended a stream; `client` when the client went away. */
export type CloseReason =
  | "client"
  | "slow"
  | "revoked"
  | "key_deleted"
  | "token_revoked"
  | "shutdown"
  | "unavailable"
  | "error";

/** The last words of a stream the server ends: a comment, so clients that do not look for it ignore it. */
const CLOSING: Record<Exclude<CloseReason, "client">, string> = {
  slow: ": closing: this client is too far behind; reconnect with Last-Event-ID to resume\n\n",
  revoked: ": closing: this key no longer has access to the workspace\n\n",
  key_deleted: ": closing: this API key was deleted\n\n",
  token_revoked:
    ": closing: an access token of this grant was revoked; reconnect with a valid one to resume\n\n",
  shutdown: ": closing: the server is shutting down; reconnect with Last-Event-ID to resume\n\n",
  unavailable: ": closing: the database is unavailable; reconnect with Last-Event-ID to resume\n\n",
  error: ": closing: the stream failed; reconnect with Last-Event-ID to resume\n\n",
};

export interface StreamLimits {
  maxBufferBytes: number;
  /** The `retry:` hint, repeated in the closing words of a stream the client should resume. */
  retryMs: number;
  closeGraceMs: number;
  /** Live changes held while the stream replays from the database; more means the client is far behind. */
  maxPendingRows: number;
}

/**
 * One open `GET /events` response. Live changes come from its workspace's feed in id order; while the
 * stream replays missed changes from the database it holds the live ones and then sends those it has not
 * sent yet, so the switch-over has no gap and no duplicate.
 *
 * The response head goes out through `res` (see {@link openEventStreamHead}); the body is written straight to
 * the socket. A change reaches thousands of streams, and the response object's per-write work (chunk framing,
 * corking until the next tick) cost as much as the write itself.
 */
export class EventStream {
  /** The highest change id this stream has dealt with (sent, or skipped as not visible). */
  lastSent = 0;
  closed = false;
  /** Set once the response head is written; nothing is written before. */
  opened = false;
  closeReason: CloseReason | undefined;
  private live = false;
  private pending: ChangeBatch[] = [];
  private pendingRows = 0;

  constructor(
    readonly res: ServerResponse,
    readonly workspaceId: string,
    public access: StreamAccess,
    private readonly limits: StreamLimits,
    private readonly onClose: (stream: EventStream, reason: CloseReason) => void,
  ) {
    res.once("close", () => this.close("client"));
  }

  /** Writes SSE text; a client whose unsent output passes the limit is cut off (it resumes by id). */
  write(text: string | Buffer): boolean {
    if (this.closed || !this.opened) return false;
    const socket = this.socket;
    socket.write(text);
    if (socket.writableLength > this.limits.maxBufferBytes) {
      this.close("slow");
      return false;
    }
    return true;
  }

  /** Live changes from the feed, in id order. */
  deliver(batch: ChangeBatch): void {
    if (this.closed) return;
    if (!this.live) {
      this.pending.push(batch);
      this.pendingRows += batch.rows.length;
      if (this.pendingRows > this.limits.maxPendingRows) this.close("slow");
      return;
    }
    this.send(batch);
  }

  /** Replayed changes, in id order; written without the slow-client cut-off (the replay waits for drain). */
  replay(rows: readonly ChangeRow[]): void {
    for (const row of rows) {
      if (this.closed) return;
      if (row.id <= this.lastSent) continue;
      this.lastSent = row.id;
      if (seesChange(this.access, row)) this.socket.write(changedFrame(row));
    }
  }

  /** Ends the replay at `cursor` (everything up to it is sent) and sends the live changes held meanwhile. */
  goLive(cursor: number): void {
    if (this.closed) return;
    this.lastSent = Math.max(this.lastSent, cursor);
    this.live = true;
    const held = this.pending;
    this.pending = [];
    this.pendingRows = 0;
    for (const batch of held) this.send(batch);
  }

  /** Resolves once the unsent output is below `bytes`, or when the stream closes or `timeoutMs` passes. */
  async waitBelow(bytes: number, timeoutMs: number): Promise<boolean> {
    const socket = this.socket;
    if (socket.writableLength <= bytes) return true;
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        socket.off("drain", onDrain);
        socket.off("close", onClose);
        resolve(ok);
      };
      const onDrain = () => done(true);
      const onClose = () => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      socket.once("drain", onDrain);
      socket.once("close", onClose);
    });
  }

  /**
   * Ends the stream. Unless the client left, a closing comment goes out and the connection is closed once
   * it is flushed, or destroyed after a grace period if the client does not read it.
   */
  close(reason: CloseReason): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    this.pending = [];
    this.onClose(this, reason);
    const socket = this.res.socket;
    if (reason !== "client" && this.opened && socket && !socket.destroyed && socket.writable) {
      // The closing comment, then the end of the body, which is the end of the connection.
      const timer = setTimeout(() => socket.destroy(), this.limits.closeGraceMs);
      timer.unref();
      socket.once("close", () => clearTimeout(timer));
      const resume = reason !== "revoked" && reason !== "key_deleted";
      socket.end(resume ? `retry: ${this.limits.retryMs}\n${CLOSING[reason]}` : CLOSING[reason]);
    }
  }

  private get socket(): Socket {
    return this.res.socket as Socket;
  }

  /**
   * One write per batch: the shared buffer when this stream sees all of it, else its visible frames.
   * Members and admins see a batch without personal-team rows whole (`seesChange`), which the batch knows
   * once for all of them; only guests and personal rows are judged row by row.
   */
  private send(batch: ChangeBatch): void {
    const { rows, frames } = batch;
    if (rows.length === 0) return;
    const last = rows[rows.length - 1]!.id;
    if (last <= this.lastSent) return;
    if (
      rows[0]!.id > this.lastSent &&
      ((batch.wholeToMembers && seesEveryTeam(this.access)) ||
        rows.every((row) => seesChange(this.access, row)))
    ) {
      this.lastSent = last;
      this.write(batch.all);
      return;
    }
    let out = "";
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      if (row.id <= this.lastSent) continue;
      this.lastSent = row.id;
      if (seesChange(this.access, row)) out += frames[i]!;
    }
    if (out) this.write(out);
  }
}

/**
 * Sends the head of an event stream. The body is not chunk-encoded: it ends when the connection does
 * (`Connection: close`), so changes can be written to the socket as they are.
 */
export function openEventStreamHead(res: ServerResponse): void {
  res.useChunkedEncodingByDefault = false;
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache, no-transform",
    Connection: "close",
    "X-Accel-Buffering": "no",
  });
  res.flushHeaders();
}
