import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../../db/sql.js";
import { q } from "../../db/sql-fragment.js";
import { HttpProblem } from "../../http/problem.js";

/**
 * Brute force slowed (openapi.yaml, `POST /auth/sign-in`): each failed sign-in adds 1 to a score per
 * account and per client address; scores halve every {@link HALF_LIFE_SECONDS}. While a score is above
 * its limit less one (so `limit` failures in a row reach it, however little they have decayed meanwhile), sign-in for that account or from that address answers 429 `rate_limited` with `Retry-After` (the
 * seconds until the score has decayed below the limit), without checking the password. So an attacker gets
 * a handful of guesses per account every few minutes, from however many addresses, and the owner who
 * waits signs in: there is no lockout to clear. A success clears the account's score.
 */
export const ACCOUNT_LIMIT = 5;
export const ADDRESS_LIMIT = 20;
export const HALF_LIFE_SECONDS = 300;

const decayed = q`score * power(0.5, extract(epoch from (now() - updated_at)) / ${HALF_LIFE_SECONDS}::float8)`;

/** 429 when the account or the address is at its limit, with the wait until it no longer is. */
export async function refuseWhileThrottled(
  em: EntityManager,
  account: string,
  address: string,
): Promise<void> {
  const rows = await sql<{ key: string; score: number }>(
    em,
    q`select key, ${decayed} as score from sign_in_failures where key in (${`account:${account}`}, ${`address:${address}`})`,
  );
  let wait = 0;
  for (const row of rows) {
    const limit = row.key.startsWith("account:") ? ACCOUNT_LIMIT : ADDRESS_LIMIT;
    if (row.score > limit - 1) wait = Math.max(wait, HALF_LIFE_SECONDS * Math.log2(row.score / (limit - 1)));
  }
  if (wait > 0) {
    const retryAfter = Math.max(1, Math.ceil(wait));
    throw new HttpProblem(
      429,
      "rate_limited",
      "Too many requests",
      `Too many failed sign-ins for this account or from this address; retry after ${retryAfter} s.`,
      { retryAfter },
    );
  }
}

/** One more failure for the account and the address; scores that decayed to nothing are dropped now and then. */
export async function recordFailure(em: EntityManager, account: string, address: string): Promise<void> {
  await sql(
    em,
    q`insert into sign_in_failures as f (key, score, updated_at)
      values (${`account:${account}`}, 1, now()), (${`address:${address}`}, 1, now())
      on conflict (key) do update
        set score = f.score * power(0.5, extract(epoch from (now() - f.updated_at)) / ${HALF_LIFE_SECONDS}::float8) + 1,
            updated_at = now()`,
  );
  if (Math.random() < 0.01) {
    await sql(em, q`delete from sign_in_failures where updated_at < now() - interval '1 day'`);
  }
}

/** The account signed in: its failures are forgotten (the address's stay). */
export async function clearAccount(em: EntityManager, account: string): Promise<void> {
  await sql(em, q`delete from sign_in_failures where key = ${`account:${account}`}`);
}
