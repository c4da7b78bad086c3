import type { Caller } from "./auth.js";

interface Entry {
  caller: Caller;
  /** The `auth_epoch` version the caller was read at, as text. */
  epoch: string;
  /** The same, as a number to compare. */
  version: bigint;
  readAt: number;
}

/**
 * Callers recently authenticated by this server, by the SHA-256 of their key, for the reads that confirm
 * their caller in band (`handle(..., { confirmsCaller: true })`).
 *
 * Authentication reads the key, its owner and the workspaces it reaches on every request (the contract's
 * "Authentication": a removed member or a deleted key is cut off at once). For those reads a cached caller
 * stands in for that round trip, and the read's own statement selects the `auth_epoch` version
 * (`AUTH_EPOCH_SQL`), which every change to what authentication reads bumps in its transaction
 * (migration `…_auth_epoch`). Seeing the version the caller was read at, in the very snapshot the read's
 * data comes from, proves the caller is what authenticating in that statement would have given; any other
 * version, no statement seeing one (an empty page, a 404), or an error, and the request is answered again
 * with the key read afresh (the `authenticate` step, `http/authenticate.ts`). Another instance's change is seen the same way, as the version
 * lives in the database. So the cache changes how many round trips a read takes, never what it answers.
 *
 * Entries live a minute (the key's `last_used_at` is written by the authentication that refills them,
 * at most once a minute, as before) and are dropped once a caller is read here at a newer version; at most
 * `max`.
 */
export class CallerCache {
  private readonly entries = new Map<string, Entry>();
  /** The newest version a caller was read at here: entries read at an older one are stale. */
  private newest = 0n;

  constructor(
    private readonly ttlMs = 60_000,
    private readonly max = 10_000,
  ) {}

  get(tokenHash: string): Entry | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.version < this.newest || performance.now() - entry.readAt > this.ttlMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry;
  }

  set(tokenHash: string, caller: Caller, epoch: string): void {
    const version = BigInt(epoch);
    if (version < this.newest) return;
    this.newest = version;
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(tokenHash, { caller, epoch, version, readAt: performance.now() });
  }

  delete(tokenHash: string): void {
    this.entries.delete(tokenHash);
  }
}
