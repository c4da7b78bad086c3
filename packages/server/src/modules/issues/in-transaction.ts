import type { EntityManager } from "@mikro-orm/postgresql";
import type { WorkspaceScope } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";
import { holdInWorkspace } from "../shared/hold.js";

/**
 * Runs `fn` in one transaction with a scope whose `em` is the transaction's, so the resolvers and every
 * write inside see and commit (or roll back) together. Nested calls become savepoints.
 */
export function inTransaction<T>(scope: WorkspaceScope, fn: (tx: WorkspaceScope) => Promise<T>): Promise<T> {
  return scope.em.transactional((em) => fn({ ...scope, em }));
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
