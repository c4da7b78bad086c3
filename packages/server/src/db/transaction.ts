import type { WorkspaceScope } from "../http/handler.js";

/**
 * Runs `fn` in one transaction with a scope whose `em` is the transaction's, so the resolvers and every
 * write inside see and commit (or roll back) together. Inside a transaction already (a write sent with an
 * `Idempotency-Key` runs in one with its record) it joins that one instead of opening a savepoint: any
 * failure rolls the whole request back anyway, and a create then costs no more statements than without.
 */
export async function inTransaction<T>(
  scope: WorkspaceScope,
  fn: (tx: WorkspaceScope) => Promise<T>,
): Promise<T> {
  if (!scope.em.isInTransaction()) return scope.em.transactional((em) => fn({ ...scope, em }));
  const result = await fn(scope);
  await scope.em.flush();
  return result;
}
