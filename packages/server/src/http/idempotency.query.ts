import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../db/sql.js";
import { q } from "../db/sql-fragment.js";
import {
  AnsweredMeanwhile,
  IDEMPOTENCY_RETENTION_HOURS,
  IdempotencyInProgress,
  IdempotencyKeyReused,
  type StoredAnswer,
} from "./idempotency.js";

/** The statements of idempotent writes (the contract's "Idempotent writes"): claim, record, prune. */

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
    q`select pg_try_advisory_xact_lock(hashtext(${apiKeyId}::text), hashtext(${key})) as locked,
            (select json_build_object('fingerprint', fingerprint, 'status', status,
                                      'workspaceSlug', workspace_slug, 'body', body)
               from idempotent_requests
              where api_key_id = ${apiKeyId}::uuid and key = ${key}
                and created_at > now() - ${IDEMPOTENCY_RETENTION_HOURS}::int * interval '1 hour') as found`,
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
    q`insert into idempotent_requests (api_key_id, key, fingerprint, status, workspace_slug, body, created_at)
     values (${apiKeyId}::uuid, ${key}, ${fingerprint}, ${answer.status}, ${answer.workspaceSlug}, ${answer.body}, now())
     on conflict (api_key_id, key) do update
        set fingerprint = excluded.fingerprint, status = excluded.status,
            workspace_slug = excluded.workspace_slug, body = excluded.body, created_at = excluded.created_at
      where idempotent_requests.created_at <= now() - ${IDEMPOTENCY_RETENTION_HOURS}::int * interval '1 hour'
     returning 1`,
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
      const [lock] = await sql<{ ok: boolean }>(tx, q`select pg_try_advisory_xact_lock(${PRUNE_LOCK}) as ok`);
      if (!lock?.ok) return -1;
      const rows = await sql(
        tx,
        q`delete from idempotent_requests where ctid = any(array(
           select ctid from idempotent_requests where created_at <= now() - ${IDEMPOTENCY_RETENTION_HOURS}::int * interval '1 hour'
            order by created_at limit ${PRUNE_BATCH}))
         returning 1`,
      );
      return rows.length;
    });
    if (deleted < 0) break;
    total += deleted;
    if (deleted < PRUNE_BATCH) break;
  }
  return total;
}
