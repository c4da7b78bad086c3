import type { MikroORM } from "@mikro-orm/postgresql";
import type { OperationStep } from "./operation-call.js";

/**
 * A row the operation refers to was deleted by a concurrent transaction after the operation looked it up
 * (a cycle deleted while an issue is being put in it, a team deleted while an issue is created in it). Run
 * again, the operation looks it up afresh and answers as for anything that does not exist.
 */
const PG_FOREIGN_KEY_VIOLATION = "23503";
/**
 * PostgreSQL's "try again": the victim of a deadlock, a serialization failure, or the foreign key violation
 * above. Its transaction was rolled back whole, so the operation is run again (a few times, after a short
 * random pause) instead of failing.
 * Deadlocks happen between writes to related rows taken in different orders, e.g. two issues that block
 * each other changing state at once (each adjusts the other's counters).
 */
const PG_RETRYABLE = new Set(["40P01", "40001", PG_FOREIGN_KEY_VIOLATION]);
const RETRY_ATTEMPTS = 4;

/** Runs `run` again while PostgreSQL asks to try again, up to {@link RETRY_ATTEMPTS} times. */
export async function retryingConflicts<T>(run: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt >= RETRY_ATTEMPTS || !code || !PG_RETRYABLE.has(code)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 20));
    }
  }
}

/**
 * The last step: the operation's handler, with its scope and validated input; its answer is the call's
 * result. Run again with a fresh unit of work when PostgreSQL asks to try again, unless it runs inside
 * the idempotent step's transaction, which is then run again whole.
 */
export function runHandler(orm: MikroORM): OperationStep {
  return async (call) => {
    const handler = call.entry!.handler;
    const input = call.input as never;
    call.result = (
      call.inTransaction
        ? await handler(call.scope, input)
        : await retryingConflicts((attempt) =>
            // A fresh unit of work for each attempt: nothing of the rolled-back one carries over.
            handler(attempt === 1 ? call.scope : { ...call.scope, em: orm.em.fork() }, input),
          )
    ) as { status: number; body: unknown };
  };
}
