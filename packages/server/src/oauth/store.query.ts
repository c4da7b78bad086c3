import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../db/sql.js";
import { q } from "../db/sql-fragment.js";
import { notifyGrantRevoked } from "../events/record-change.query.js";

/**
 * The statements of the OAuth server's storage (`oauth_store`, migration `…_oauth_store`): the adapter
 * interface of `oidc-provider` (`oauth/adapter.ts`), one statement each. Rows are found by the SHA-256
 * of the id, and rows past `expires_at` are as good as gone.
 */

export type Payload = Record<string, unknown>;

export interface StoredRow {
  kind: string;
  idHash: string;
  payload: Payload;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  /** Seconds from now; none: kept until deleted. */
  expiresIn: number | null;
}

export async function upsertRow(em: EntityManager, row: StoredRow): Promise<void> {
  await sql(
    em,
    q`insert into oauth_store (kind, id_hash, payload, grant_id, user_code, uid, expires_at)
      values (${row.kind}, ${row.idHash}, ${JSON.stringify(row.payload)}::jsonb, ${row.grantId}, ${row.userCode},
              ${row.uid}, case when ${row.expiresIn}::int is null then null
                               else now() + make_interval(secs => ${row.expiresIn}::int) end)
      on conflict (kind, id_hash) do update
        set payload = excluded.payload, grant_id = excluded.grant_id, user_code = excluded.user_code,
            uid = excluded.uid, expires_at = excluded.expires_at`,
  );
}

type Found = { payload: Payload; consumed: number | null };
const LIVE = q`(expires_at is null or expires_at > now())`;

async function findWhere(
  em: EntityManager,
  kind: string,
  where: ReturnType<typeof q>,
): Promise<Found | undefined> {
  const rows = await sql<Found>(
    em,
    q`select payload, extract(epoch from consumed_at)::bigint as consumed
        from oauth_store where kind = ${kind} and ${where} and ${LIVE}`,
  );
  return rows[0];
}

export const findById = (em: EntityManager, kind: string, idHash: string) =>
  findWhere(em, kind, q`id_hash = ${idHash}`);
export const findByUserCode = (em: EntityManager, kind: string, userCode: string) =>
  findWhere(em, kind, q`user_code = ${userCode}`);
export const findByUid = (em: EntityManager, kind: string, uid: string) =>
  findWhere(em, kind, q`uid = ${uid}`);

export async function consumeRow(em: EntityManager, kind: string, idHash: string): Promise<void> {
  await sql(em, q`update oauth_store set consumed_at = now() where kind = ${kind} and id_hash = ${idHash}`);
}

/** Deletes a token or code; an access token's event streams close with it (`notifyGrantRevoked`). */
export async function destroyRow(em: EntityManager, kind: string, idHash: string): Promise<void> {
  const gone = await sql<{ grant_id: string | null }>(
    em,
    q`delete from oauth_store where kind = ${kind} and id_hash = ${idHash} returning grant_id`,
  );
  const grantId = gone[0]?.grant_id;
  if (kind === "AccessToken" && grantId) await notifyGrantRevoked(em, grantId);
}

/** Every token and code of a grant, of every kind: what revoking the grant takes away, its streams too. */
export async function revokeGrant(em: EntityManager, grantId: string): Promise<void> {
  await sql(em, q`delete from oauth_store where grant_id = ${grantId}`);
  await notifyGrantRevoked(em, grantId);
}

/** Rows past their expiry, for the prune schedule. */
export async function pruneExpired(em: EntityManager): Promise<number> {
  const rows = await sql(
    em,
    q`delete from oauth_store where expires_at < now() - interval '1 hour' returning 1`,
  );
  return rows.length;
}

/** A secret of the server's (cookie keys, signing key), made once by whichever instance asks first. */
export async function sharedSecret(em: EntityManager, name: string, candidate: Payload): Promise<Payload> {
  await sql(
    em,
    q`insert into oauth_store (kind, id_hash, payload) values ('ServerSecret', ${name}, ${JSON.stringify(candidate)}::jsonb)
      on conflict (kind, id_hash) do nothing`,
  );
  const row = await findById(em, "ServerSecret", name);
  return row!.payload;
}
