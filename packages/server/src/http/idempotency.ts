import { createHash } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { Context } from "koa";
import { sql } from "../db/sql.js";
import type { OperationSpec } from "./contract.js";
import { HttpProblem, Invalid } from "./problem.js";

/**
 * `Idempotency-Key` (the contract's "Idempotent writes"): the first request with a key acts and its answer
 * is stored in the same transaction as its work; a repeat from the same API key within 24 hours gets that
 * answer again without acting; the same key with another request is refused; a repeat while the first is
 * still running is told to come back.
 */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
export const IDEMPOTENCY_RETENTION_HOURS = 24;
/** What a repeat of a request still running is told to wait, in seconds. */
const IN_PROGRESS_RETRY_AFTER = 1;
const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;

/** The stored first answer of a request. */
export interface StoredAnswer {
  status: number;
  workspaceSlug: string | null;
  body: string;
}

/** The operations that take the header: authenticated writes that are not idempotent by themselves. */
export function takesIdempotencyKey(op: OperationSpec): boolean {
  return op.authenticated && (op.method === "post" || op.method === "patch");
}

/** The request's key, `undefined` without one; a malformed one is 400 naming the header. */
export function idempotencyKeyOf(ctx: Context): string | undefined {
  const value = ctx.headers["idempotency-key"];
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value.join(",") : value;
  if (!VISIBLE_ASCII.test(key)) {
    throw new Invalid("The Idempotency-Key header must be 1 to 255 visible ASCII characters.", [
      { path: `/header/${IDEMPOTENCY_HEADER}`, message: "must be 1 to 255 visible ASCII characters" },
    ]);
  }
  return key;
}

/** Sorted keys, so two bodies that mean the same thing give the same fingerprint. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** What a repeat must match: method, path, query, the workspace acted in, and the body. */
export function requestFingerprint(ctx: Context, workspaceId: string | undefined, body: unknown): string {
  return createHash("sha256")
    .update(
      canonicalJson([
        ctx.method,
        ctx.path,
        ctx.querystring,
        workspaceId ?? null,
        body === undefined ? null : body,
      ]),
    )
    .digest("base64url");
}

export class IdempotencyKeyReused extends HttpProblem {
  constructor() {
    super(
      422,
      "idempotency_key_reused",
      "Idempotency key reused",
      "This Idempotency-Key was already used for another request (method, path, query or body). Use a new key for a new request.",
    );
  }
}

export class IdempotencyInProgress extends HttpProblem {
  constructor() {
    super(
      409,
      "idempotency_in_progress",
      "Request in progress",
      "A request with this Idempotency-Key is still running. Send it again shortly to get its answer.",
      { retryAfter: IN_PROGRESS_RETRY_AFTER },
    );
  }
}

/**
 * Another request with the same key committed between this one's look-up and its record: this one's work
 * is rolled back and the committed answer is replayed instead.
 */
export class AnsweredMeanwhile extends Error {}

/**
 * Inside the request's transaction: holds the key against concurrent repeats (a transaction-level advisory
 * lock, released at commit or rollback) and reads an earlier answer. A matching earlier answer is returned
 * to be replayed; another request's is 422; a repeat of one still running is 409. `undefined`: go ahead,
 * this request is the first.
 *
 * Lock and look-up are one statement. A repeat that committed between the two is not seen here; the unique
 * key then stops this request's record (see {@link recordAnswer}) and its work rolls back.
 */
export async function claimKey(
  em: EntityManager,
  apiKeyId: string,
  key: string,
  fingerprint: string,
): Promise<StoredAnswer | undefined> {
  const [row] = await sql<{ locked: boolean; found: (StoredAnswer & { fingerprint: string }) | null }>(
    em,
    // The two-int form keeps these locks apart from the single-bigint ones the server takes elsewhere.
    `select pg_try_advisory_xact_lock(hashtext(?::text), hashtext(?)) as locked,
            (select json_build_object('fingerprint', fingerprint, 'status', status,
                                      'workspaceSlug', workspace_slug, 'body', body)
               from idempotent_requests
              where api_key_id = ?::uuid and key = ?
                and created_at > now() - ?::int * interval '1 hour') as found`,
    [apiKeyId, key, apiKeyId, key, IDEMPOTENCY_RETENTION_HOURS],
    { prepare: true },
  );
  const found = row?.found;
  if (found) {
    if (found.fingerprint !== fingerprint) throw new IdempotencyKeyReused();
    return { status: found.status, workspaceSlug: found.workspaceSlug, body: found.body };
  }
  if (!row?.locked) throw new IdempotencyInProgress();
  return undefined;
}

/**
 * Stores the answer in the request's transaction. An expired record of the same key is replaced; a live one
 * (committed by a repeat meanwhile) throws {@link AnsweredMeanwhile}.
 */
export async function recordAnswer(
  em: EntityManager,
  apiKeyId: string,
  key: string,
  fingerprint: string,
  answer: StoredAnswer,
): Promise<void> {
  const rows = await sql(
    em,
    `insert into idempotent_requests (api_key_id, key, fingerprint, status, workspace_slug, body, created_at)
     values (?::uuid, ?, ?, ?, ?, ?, now())
     on conflict (api_key_id, key) do update
        set fingerprint = excluded.fingerprint, status = excluded.status,
            workspace_slug = excluded.workspace_slug, body = excluded.body, created_at = excluded.created_at
      where idempotent_requests.created_at <= now() - ?::int * interval '1 hour'
     returning 1`,
    [
      apiKeyId,
      key,
      fingerprint,
      answer.status,
      answer.workspaceSlug,
      answer.body,
      IDEMPOTENCY_RETENTION_HOURS,
    ],
    { prepare: true },
  );
  if (rows.length === 0) throw new AnsweredMeanwhile();
}

/** Any constant will do; it only has to be the same for every instance. */
const PRUNE_LOCK = 7_240_714;
const PRUNE_BATCH = 5_000;

/**
 * Deletes records past the retention in short batches, one instance at a time (an instance that finds the
 * lock taken leaves the round to the other). Returns the rows deleted.
 */
export async function pruneIdempotentRequests(em: EntityManager): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await em.fork().transactional(async (tx) => {
      const [lock] = await sql<{ ok: boolean }>(tx, "select pg_try_advisory_xact_lock(?) as ok", [
        PRUNE_LOCK,
      ]);
      if (!lock?.ok) return -1;
      const rows = await sql(
        tx,
        `delete from idempotent_requests where ctid = any(array(
           select ctid from idempotent_requests where created_at <= now() - ?::int * interval '1 hour'
            order by created_at limit ?))
         returning 1`,
        [IDEMPOTENCY_RETENTION_HOURS, PRUNE_BATCH],
      );
      return rows.length;
    });
    if (deleted < 0) break;
    total += deleted;
    if (deleted < PRUNE_BATCH) break;
  }
  return total;
}
