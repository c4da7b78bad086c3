import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../../db/sql.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";

/**
 * Runs `fn` in one transaction with a scope whose `em` is the transaction's, so the resolvers and every
 * write inside see and commit (or roll back) together. Nested calls become savepoints.
 */
export function inTransaction<T>(scope: WorkspaceScope, fn: (tx: WorkspaceScope) => Promise<T>): Promise<T> {
  return scope.em.transactional((em) => fn({ ...scope, em }));
}

/**
 * Locks resolved issues for the rest of the transaction (in id order, like every writer of several issues)
 * and checks each is still in `workspaceId`. An issue resolved before the lock may have left the workspace
 * meanwhile, carried by a project or initiative moved to another one: writing to it then would put this
 * workspace's labels, comments or links into the other. Such an issue is 404, as it is to later requests.
 *
 * `update` for writers of the issue rows themselves or of what hangs off them; `key share` for those that
 * only point at issues (document links, status update citations): it waits only for moves and deletes.
 */
export async function lockIssues(
  em: EntityManager,
  workspaceId: string,
  issues: { id: string; identifier: string }[],
  mode: "update" | "key share" = "update",
): Promise<void> {
  if (issues.length === 0) return;
  const ids = [...new Set(issues.map((i) => i.id))];
  const locked = await sql<{ id: string }>(
    em,
    `select id from issues where id = any(?::uuid[]) and workspace_id = ? order by id for ${mode}`,
    [ids, workspaceId],
  );
  if (locked.length === ids.length) return;
  const held = new Set(locked.map((l) => l.id));
  const gone = issues.find((i) => !held.has(i.id))!;
  throw new NotFound(`No issue "${gone.identifier}" in this workspace.`);
}
