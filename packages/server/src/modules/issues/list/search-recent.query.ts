import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../../../db/sql.js";
import { q } from "../../../db/sql-fragment.js";

/**
 * Issues a workspace keeps in `issue_search_recent` (migration `issue_search_recent`) after a prune, which
 * runs once it holds twice as many: a search in `updated` order answers from them when they hold its page,
 * that is for words matching one issue in a hundred or more (bench/README.md, "Recent issues").
 */
export const SEARCH_RECENT_ROWS = 5000;
/** Any constant will do; it only has to be the same for every instance. */
const PRUNE_LOCK = 7_240_613;

/**
 * Trims every workspace holding more than twice `keep` recent rows to its `keep` most recently updated
 * issues (`tracker_search_recent_prune`, migration `issue_search_recent`), under an advisory lock: one
 * instance at a time, and an instance that finds it taken leaves the round to the other. Rows deleted.
 */
export async function pruneSearchRecent(em: EntityManager, keep = SEARCH_RECENT_ROWS): Promise<number> {
  return em.fork().transactional(async (tx) => {
    const [lock] = await sql<{ ok: boolean }>(tx, q`select pg_try_advisory_xact_lock(${PRUNE_LOCK}) as ok`);
    if (!lock?.ok) return 0;
    const [row] = await sql<{ deleted: string }>(
      tx,
      q`select tracker_search_recent_prune(${keep}) as deleted`,
    );
    return Number(row?.deleted ?? 0);
  });
}
