import type { EntityManager } from "@mikro-orm/postgresql";
import type { WorkspaceScope } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";
import { holdInWorkspace } from "../shared/hold.js";

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

/**
 * {@link holdInWorkspace} for resolved issues, 404 naming the first that left the workspace: writing to it
 * would put this workspace's labels, comments or links into the other. `key share` for writes that only
 * point at issues (document links, status update citations).
 */
export async function lockIssues(
  em: EntityManager,
  workspaceId: string,
  issues: { id: string; identifier: string }[],
  mode: "update" | "key share" = "update",
): Promise<void> {
  const held = await holdInWorkspace(
    em,
    "issues",
    workspaceId,
    issues.map((i) => i.id),
    mode,
  );
  const gone = issues.find((i) => !held.has(i.id));
  if (gone) throw new NotFound(`No issue "${gone.identifier}" in this workspace.`);
}
