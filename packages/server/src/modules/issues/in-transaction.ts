import type { WorkspaceScope } from "../../http/handler.js";

/**
 * Runs `fn` in one transaction with a scope whose `em` is the transaction's, so the resolvers and every
 * write inside see and commit (or roll back) together. Nested calls become savepoints.
 */
export function inTransaction<T>(scope: WorkspaceScope, fn: (tx: WorkspaceScope) => Promise<T>): Promise<T> {
  return scope.em.transactional((em) => fn({ ...scope, em }));
}
