import { createHash } from "node:crypto";
import type { EntityManager, Knex } from "@mikro-orm/postgresql";
import pg from "pg";
import { pgArray } from "./pg-array.js";
import type { SqlFragment } from "./sql-fragment.js";

/** The driver connection underneath the ORM: node-postgres's `Client#query` with a query config. */
interface PgConnection {
  query(config: { text: string; values: unknown[]; name?: string }): Promise<{ rows: unknown[] }>;
}
interface ConnectionSource {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
}

interface Numbered {
  text: string;
  count: number;
  /** The prepared statement's name, derived from the text so one name never means two texts. */
  name?: string;
}

/** `?` placeholders numbered `$1..$n`, memoised per query text (bounded: filter shapes are many). */
const numbered = new Map<string, Numbered>();
const NUMBERED_MAX = 2000;

/**
 * Texts prepared so far, capped: a hot statement whose text varied per request (a value spliced into the
 * text by mistake) would otherwise make every connection keep an unbounded number of plans. Past the cap,
 * new texts run unprepared.
 */
const preparedNames = new Set<string>();
const PREPARED_MAX = 500;

function numberPlaceholders(query: string): Numbered {
  let hit = numbered.get(query);
  if (!hit) {
    let count = 0;
    const text = query.replace(/\?/g, () => `$${++count}`);
    hit = { text, count };
    if (numbered.size >= NUMBERED_MAX) numbered.clear();
    numbered.set(query, hit);
  }
  return hit;
}

/**
 * Runs a statement, composed with the fragment template (`q`, `raw`, `joinSql`: `db/sql-fragment.ts`), in
 * the EntityManager's transaction, when it has one. Its parameters are sent as bind parameters (never
 * spliced into the text). A JavaScript array is sent as ONE PostgreSQL array value (cast it:
 * `= any(${ids}::uuid[])`), empty arrays included. Every `?` in the text is a placeholder: write jsonb's `?`
 * operators as functions (`jsonb_exists`) and keep question marks out of SQL literals (pass them as values).
 * Only `src/db/` and the files named `*.query.ts` call it (the linter refuses the import elsewhere).
 *
 * `prepare` makes it a named prepared statement: parsed once per connection and, after a few runs,
 * executed with a cached generic plan instead of being planned again, when PostgreSQL judges that plan as
 * good as one made for the values. Worth it on hot paths whose statements cost more to plan than to run
 * (authentication, the issue read, page data, create), and only for a bounded number of statement texts,
 * as each connection keeps every text it prepared.
 *
 * `prepare: "generic"` always uses the generic plan, planned once per connection: for statements whose best
 * plan is the same whatever the values, which PostgreSQL's estimate would still replan every time. Outside
 * a transaction they run on a small pool of their own, whose sessions force generic plans.
 *
 * Other statements outside a transaction run on a node-postgres pool of their own too, not on the ORM's:
 * a checkout through the ORM's pool (knex and its pool manager) cost the issue read a tenth of its server
 * time (bench/README.md, "The floor"). In a transaction, statements run on the transaction's connection.
 */
export async function sql<T = Record<string, unknown>>(
  em: EntityManager,
  { sql: query, params }: SqlFragment,
  options: { prepare?: boolean | "generic" } = {},
): Promise<T[]> {
  const statement = numberPlaceholders(query);
  const { text, count } = statement;
  if (count !== params.length) {
    throw new Error(`sql: ${count} placeholders but ${params.length} parameters`);
  }
  let name: string | undefined;
  if (options.prepare) {
    statement.name ??= `p_${createHash("sha1").update(text).digest("base64url")}`;
    if (preparedNames.has(statement.name) || preparedNames.size < PREPARED_MAX) {
      preparedNames.add(statement.name);
      name = statement.name;
    }
  }
  const values = params.map((p) => (Array.isArray(p) ? pgArray(p) : p));
  const own = rawTransactions.get(em);
  if (own) return (await own.query(name ? { name, text, values } : { text, values })).rows as T[];
  const trx = em.getTransactionContext<Knex.Transaction>();
  if (!trx) {
    const pool = plainPool(em, name && options.prepare === "generic" ? "generic" : "direct");
    const result = await pool.query(name ? { name, text, values } : { text, values });
    return result.rows as T[];
  }
  const source = trx.client as unknown as ConnectionSource;
  const connection = await source.acquireConnection();
  try {
    const result = await connection.query(name ? { name, text, values } : { text, values });
    return result.rows as T[];
  } finally {
    await source.releaseConnection(connection);
  }
}

/** {@link sql}'s first row. */
export async function sqlOne<T = Record<string, unknown>>(
  em: EntityManager,
  statement: SqlFragment,
  options: { prepare?: boolean | "generic" } = {},
): Promise<T | undefined> {
  return (await sql<T>(em, statement, options))[0];
}

/** Whether `filter` sets nothing but `keys` (a key set to undefined is not set). */
export function setsOnly(filter: object, keys: ReadonlySet<string>): boolean {
  return Object.entries(filter).every(([key, value]) => value === undefined || keys.has(key));
}

/**
 * `prepare` for a list whose plan may depend on its filter: `"generic"` when the filter sets nothing but
 * `planFreeKeys` (keys whose values never change the best plan), else planned for its values each time.
 */
export function genericPlanWhenOnly(filter: object, planFreeKeys: ReadonlySet<string>): "generic" | false {
  return setsOnly(filter, planFreeKeys) ? "generic" : false;
}

type PoolKind = "generic" | "direct";
/**
 * Per ORM connection, the pools of statements outside a transaction: `generic` for `prepare: "generic"`,
 * `direct` for the others; each opened on first use.
 */
const plainPools = new WeakMap<object, Map<PoolKind, pg.Pool>>();
/**
 * Sessions of that pool. Its statements are short reads (authentication, lists), so a few sessions keep the
 * database busy; more only interleave more backends on the same cores, each running slower (bench, full-text
 * list on two cores: 8 sessions, 1.12-1.22 ms of PostgreSQL CPU per request; 4 sessions, 1.03-1.05 ms).
 */
const GENERIC_POOL_SIZE = 4;
/**
 * Sessions of the `direct` pool: the reads planned per request and the single statements of writes outside
 * a transaction. Fewer than the ORM's 20 for the same reason as above; writes wait on row locks here at most
 * for a statement, never for a transaction (those run on the ORM's connections).
 */
const DIRECT_POOL_SIZE = 8;

/** The sessions in a transaction of their own (`inRawTransaction`), by the EntityManager that runs in it. */
const rawTransactions = new WeakMap<EntityManager, pg.PoolClient>();

/** Whether `em`'s statements run in a transaction of `inRawTransaction`. */
export function inRawTransaction(em: EntityManager): boolean {
  return rawTransactions.has(em);
}

/**
 * Runs `fn` on a session of the plain pool, without the ORM's transaction layer: every `sql()` of the
 * EntityManager it gets (a fresh fork of `em`) runs on that session. `fn` opens and commits the transaction
 * itself, BEGIN and COMMIT sent in one round trip with its first and last statements
 * (`http/idempotency.query.ts`); one it leaves open, or throws out of, is rolled back. Only for work done
 * through `sql()` alone: the ORM's own writes would not be in it.
 */
export async function rawTransaction<T>(
  em: EntityManager,
  fn: (client: pg.PoolClient, em: EntityManager) => Promise<T>,
): Promise<T> {
  const client = await plainPool(em, "direct").connect();
  // A checked-out session has no pool listening for its errors: the database going away mid-transaction
  // (a restart, a failover) would otherwise be an unhandled 'error' event that ends the process. The
  // statement in flight fails by itself; the broken session is thrown away on release.
  let broken: Error | undefined;
  const onError = (err: Error) => {
    broken = err;
  };
  client.on("error", onError);
  const fork = em.fork();
  rawTransactions.set(fork, client);
  let done = false;
  try {
    const result = await fn(client, fork);
    done = true;
    return result;
  } finally {
    rawTransactions.delete(fork);
    // A transaction `fn` left open (it threw, or the session is mid-transaction) is rolled back.
    if (!done && !broken) await client.query("rollback").catch(() => undefined);
    client.off("error", onError);
    client.release(broken);
  }
}

function plainPool(em: EntityManager, kind: PoolKind): pg.Pool {
  const connection = em.getConnection();
  let pools = plainPools.get(connection);
  if (!pools) {
    pools = new Map();
    plainPools.set(connection, pools);
  }
  let pool = pools.get(kind);
  if (!pool) {
    // The ORM's own connection settings (host, port, user, database, and its type parsers).
    const settings = (
      connection as unknown as { getConnectionOptions(): pg.PoolConfig }
    ).getConnectionOptions();
    pool = new pg.Pool({
      ...settings,
      max: kind === "generic" ? GENERIC_POOL_SIZE : DIRECT_POOL_SIZE,
      idleTimeoutMillis: 30_000,
      allowExitOnIdle: true,
      ...(kind === "generic" ? { options: "-c plan_cache_mode=force_generic_plan" } : {}),
    });
    // An idle session that dies is replaced on the next checkout; the error is not the caller's.
    pool.on("error", () => undefined);
    pools.set(kind, pool);
  }
  return pool;
}

/** Closes the pools of statements outside a transaction, if any was opened; with the ORM, on shutdown. */
export async function closeGenericPlanPool(em: EntityManager): Promise<void> {
  const connection = em.getConnection();
  const pools = plainPools.get(connection);
  plainPools.delete(connection);
  await Promise.all([...(pools?.values() ?? [])].map((pool) => pool.end()));
}
