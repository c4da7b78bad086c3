import type { EntityManager } from "@mikro-orm/postgresql";
import { NotFound } from "../http/problem.js";
import { sql } from "./sql.js";
import { q, raw } from "./sql-fragment.js";

/** The workspace-owned tables a write may lock rows of. */
export type HeldTable = "issues" | "projects" | "initiatives" | "teams" | "documents";

/**
 * Locks rows of `table` by id, in id order, for the rest of the transaction, on the condition that each is
 * still in `workspaceId`, and returns the ids held. A row resolved before its lock may have left the
 * workspace meanwhile (carried to another one by a project or initiative move): it is missing from the
 * answer, and the caller answers 404 as any later request would. A single-table statement, so waiting for
 * a concurrent change re-checks the row's own current values and nothing stale.
 *
 * `update` for writers of the rows themselves or of what hangs off them; `share` to hold a row's current
 * values (a project's teams) still while checking them; `key share` for writes that only point at the
 * row, which then wait only for moves and deletes.
 */
export async function holdInWorkspace(
  em: EntityManager,
  table: HeldTable,
  workspaceId: string,
  ids: string[],
  mode: "update" | "share" | "key share",
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await sql<{ id: string }>(
    em,
    q`select id from ${raw(table)} where id = any(${[...new Set(ids)]}::uuid[]) and workspace_id = ${workspaceId} order by id for ${raw(mode)}`,
  );
  return new Set(rows.map((r) => r.id));
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
