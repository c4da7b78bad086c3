import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../db/sql.js";
import { q, raw, type SqlFragment } from "../db/sql-fragment.js";
import type { MemberRole } from "../modules/workspaces/workspace.entity.js";
import { CHANGE_ROW_SQL } from "./change-row.js";

/**
 * The statements of the live event stream (event-hub.ts, workspace-feed.ts): few and fixed, and run on
 * every batch of changes, so each is prepared.
 */

/** Rows read per query; a bigger backlog is read in several pages. */
export const PAGE_SIZE = 500;
/** Longest id range (across all workspaces) checked for gaps in one read. */
const GAP_CHECK_LIMIT = 50_000;

/**
 * What a read needs to know about transactions, as text (xid8): the oldest one still running in the
 * statement's snapshot (`xmin`), and a fresh id drawn by the reader after the snapshot was taken
 * (`horizon`). Every writer that drew an event id before the snapshot got its transaction id before that
 * (recordChanges takes it first), so its id is below the horizon. The snapshot's own list of running
 * transactions is not enough: it leaves out running ones above the newest *completed* id, and missing one
 * of those is how an event would be lost.
 */
const TXN_SQL = raw(
  `pg_snapshot_xmin(pg_current_snapshot())::text as xmin, pg_current_xact_id()::text as horizon`,
);

/** Any constant will do for the prune's lock; it only has to be the same for every instance. */
const PRUNE_LOCK = 7_240_512;
export const PRUNE_BATCH = 5_000;

export type FeedStatements = ReturnType<typeof feedStatements>;

/** The feed's statements, each on an EntityManager of its own from `em`. */
export function feedStatements(em: () => EntityManager) {
  const run = <T>(statement: SqlFragment) => sql<T>(em(), statement, { prepare: true });
  const changeRows = raw(CHANGE_ROW_SQL);
  return {
    /** A feed's start: the workspace's newest event, and the transactions that might still commit one. */
    start: (workspaceId: string) =>
      run<{ max: number; xmin: string; horizon: string }>(
        q`select coalesce(max(id), 0)::float8 as max, ${TXN_SQL} from change_events where workspace_id = ${workspaceId}`,
      ),
    /** The oldest transaction still running. */
    xmin: () => run<{ xmin: string }>(raw("select pg_snapshot_xmin(pg_current_snapshot())::text as xmin")),
    /**
     * A page of the workspace's changes after `cursor`, with the snapshot's transactions and `first_gap`:
     * the lowest id after the cursor that no workspace's visible row has (ids are dense, from a sequence
     * with cache 1). Over a very long range the check is skipped (as if the gap were right after the cursor).
     */
    read: (workspaceId: string, cursor: number) =>
      run<{ xmin: string; horizon: string; rows: unknown; first_gap: number | null }>(
        q`with mine as (${changeRows} where e.workspace_id = ${workspaceId} and e.id > ${cursor} order by e.id limit ${PAGE_SIZE})
       select ${TXN_SQL},
              coalesce((select json_agg(r order by r.id) from mine r), '[]'::json) as rows,
              (select case when top.max - ${cursor}::bigint > ${raw(String(GAP_CHECK_LIMIT))} then ${cursor}::bigint + 1
                           else (select min(g) from generate_series(${cursor}::bigint + 1, top.max) g
                                  where not exists (select 1 from change_events c where c.id = g)) end
                 from (select max(id) as max from mine) top)::float8 as first_gap`,
      ),
    /** A page of the workspace's changes in (`from`, `until`], for a stream that resumes. */
    replay: (workspaceId: string, from: number, until: number) =>
      run<{ rows: unknown }>(
        q`select coalesce(json_agg(r order by r.id), '[]'::json) as rows
           from (${changeRows} where e.workspace_id = ${workspaceId} and e.id > ${from} and e.id <= ${until} order by e.id limit ${PAGE_SIZE}) r`,
      ),
    /** Whether event `id` is still kept; for id 0, whether the workspace is younger than the retention. */
    kept: (workspaceId: string, id: number, retentionHours: number) =>
      run<{ kept: boolean }>(
        id === 0
          ? q`select created_at > now() - ${retentionHours}::float8 * interval '1 hour' as kept from workspaces where id = ${workspaceId}`
          : q`select exists (select 1 from change_events where workspace_id = ${workspaceId} and id = ${id}) as kept`,
      ),
    /** What each of these users may see in the workspace: their role and their teams. */
    access: (workspaceId: string, userIds: string[]) =>
      run<{ userId: string; role: MemberRole; teams: string[] }>(
        q`select m.user_id as "userId", m.role,
              array(select tm.team_id::text from team_members tm join teams t on t.id = tm.team_id
                     where tm.user_id = m.user_id and t.workspace_id = m.workspace_id) as teams
         from memberships m
        where m.workspace_id = ${workspaceId} and m.user_id = any(${userIds}::uuid[])`,
      ),
    /**
     * Which of these keys, sessions (a signed-in browser's stream) or OAuth grants (a stream opened with
     * an access token: its `keyId` is made from the grant id, `http/auth.query.ts`) still exist and hold.
     */
    existingKeys: (keyIds: string[]) =>
      run<{ id: string }>(
        q`select id::text as id from api_keys where id = any(${keyIds}::uuid[])
          union all
          select id::text from sessions where id = any(${keyIds}::uuid[]) and expires_at > now()
          union all
          select distinct md5(payload->>'grantId')::uuid::text from oauth_store
           where kind = 'AccessToken' and md5(payload->>'grantId')::uuid = any(${keyIds}::uuid[])
             and (expires_at is null or expires_at > now())`,
      ),
  };
}

/**
 * One batch of the prune: events older than the retention, at most PRUNE_BATCH, under a transaction-level
 * advisory lock, so instances never prune at the same time. -1 when another instance holds the lock.
 */
export async function pruneBatch(em: EntityManager, retentionHours: number): Promise<number> {
  const [lock] = await sql<{ ok: boolean }>(em, q`select pg_try_advisory_xact_lock(${PRUNE_LOCK}) as ok`);
  if (!lock?.ok) return -1;
  const rows = await sql(
    em,
    q`delete from change_events where id in (
       select id from change_events where created_at < now() - ${retentionHours}::float8 * interval '1 hour'
        order by created_at limit ${PRUNE_BATCH})
     returning id`,
  );
  return rows.length;
}
