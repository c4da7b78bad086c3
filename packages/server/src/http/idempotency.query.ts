import type { EntityManager } from "@mikro-orm/postgresql";
import type pg from "pg";
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

/**
 * {@link claimKey} and {@link recordAnswer} on a session of their own (`rawTransaction`, db/sql.ts), each in
 * one round trip with the transaction's BEGIN or COMMIT: the simple query protocol takes several statements
 * in one message, without parameters, so the values are sent as quoted literals (`escapeLiteral`). A keyed
 * write then costs two round trips more than a plain one, not four and the ORM's transaction.
 */
export async function beginAndClaim(
  client: pg.PoolClient,
  apiKeyId: string,
  key: string,
  fingerprint: string,
): Promise<StoredAnswer | undefined> {
  const [api, k] = [client.escapeLiteral(apiKeyId), client.escapeLiteral(key)];
  const results = (await client.query(
    `begin;
     select pg_try_advisory_xact_lock(hashtext(${api}::text), hashtext(${k})) as locked,
            (select json_build_object('fingerprint', fingerprint, 'status', status,
                                      'workspaceSlug', workspace_slug, 'body', body)
               from idempotent_requests
              where api_key_id = ${api}::uuid and key = ${k}
                and created_at > now() - ${IDEMPOTENCY_RETENTION_HOURS} * interval '1 hour') as found`,
  )) as unknown as pg.QueryResult<{
    locked: boolean;
    found: (StoredAnswer & { fingerprint: string }) | null;
  }>[];
  const row = results[1]!.rows[0];
  const found = row?.found;
  if (found) {
    if (found.fingerprint !== fingerprint) throw new IdempotencyKeyReused();
    return { status: found.status, workspaceSlug: found.workspaceSlug, body: found.body };
  }
  if (!row?.locked) throw new IdempotencyInProgress();
  return undefined;
}

/** PostgreSQL's `division_by_zero`: how {@link recordAndCommit}'s statement refuses, so COMMIT does not run. */
const REFUSED = "22012";

/**
 * Stores the answer and commits, in one round trip. A live record of the key (committed by a repeat
 * meanwhile) fails the statement instead, so the COMMIT after it is not run and the work rolls back:
 * {@link AnsweredMeanwhile}.
 */
export async function recordAndCommit(
  client: pg.PoolClient,
  apiKeyId: string,
  key: string,
  fingerprint: string,
  answer: StoredAnswer,
): Promise<void> {
  const v = (x: string | null) => (x === null ? "null" : client.escapeLiteral(x));
  try {
    await client.query(
      `with ins as (
         insert into idempotent_requests (api_key_id, key, fingerprint, status, workspace_slug, body, created_at)
         values (${v(apiKeyId)}::uuid, ${v(key)}, ${v(fingerprint)}, ${Number(answer.status)}, ${v(answer.workspaceSlug)},
                 ${v(answer.body)}, now())
         on conflict (api_key_id, key) do update
            set fingerprint = excluded.fingerprint, status = excluded.status,
                workspace_slug = excluded.workspace_slug, body = excluded.body, created_at = excluded.created_at
          where idempotent_requests.created_at <= now() - ${IDEMPOTENCY_RETENTION_HOURS} * interval '1 hour'
         returning 1)
       select 1 / (select count(*)::int from ins);
       commit`,
    );
  } catch (e) {
    // The failed statement aborted the transaction; the session goes back to the pool out of it.
    await client.query("rollback").catch(() => undefined);
    if ((e as { code?: string }).code === REFUSED) throw new AnsweredMeanwhile();
    throw e;
  }
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
