import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import type { WorkspaceScope } from "../../http/handler.js";

type Schemas = components["schemas"];
type ViewOut = Schemas["View"];
type ViewDefaultOut = Schemas["ViewDefault"];

/** The contract's View shape, as columns of `saved_views v` with its team `t`. */
const VIEW_SELECT = `select v.id, v.name, v.kind, t.key as team, v.display, v.grouping, v.filters, v.sort, v.favorite
                       from saved_views v left join teams t on t.id = v.team_id`;

/** The caller's own views, favorites first, then by name. Views are private to their owner. */
export async function listViews(scope: WorkspaceScope): Promise<ViewOut[]> {
  return sql<ViewOut>(
    scope.em,
    q`${raw(VIEW_SELECT)} where v.workspace_id = ${scope.workspace.id} and v.owner_id = ${scope.caller.userId}
      order by v.favorite desc, lower(v.name), v.id`,
  );
}

/** One view by id as the View shape (updateView's answer). */
export async function readView(em: EntityManager, id: string): Promise<ViewOut | undefined> {
  return (await sqlOne<ViewOut>(em, q`${raw(VIEW_SELECT)} where v.id = ${id}`)) ?? undefined;
}

/** The contract's ViewDefault shape, as columns of `view_defaults`. */
const DEFAULT_COLUMNS = `view_key as "viewKey", (case when user_id is null then 'workspace' else 'user' end) as scope,
  filters, sort, display, grouping, hidden`;

/** The defaults in effect for the caller: per view key their own override, else the workspace baseline. */
export async function listViewDefaults(scope: WorkspaceScope, viewKey?: string): Promise<ViewDefaultOut[]> {
  return sql<ViewDefaultOut>(
    scope.em,
    q`select distinct on (view_key) ${raw(DEFAULT_COLUMNS)}
       from view_defaults
      where workspace_id = ${scope.workspace.id} and (user_id = ${scope.caller.userId} or user_id is null) ${viewKey !== undefined ? q`and view_key = ${viewKey}` : raw("")}
      order by view_key, user_id nulls last`,
  );
}

/**
 * Creates or replaces the default for (view key, user): `userId` null is the workspace baseline. The unique
 * index (workspace, view key, user) with NULLS NOT DISTINCT makes this a true upsert for the baseline too.
 */
export async function upsertViewDefault(
  em: EntityManager,
  workspaceId: string,
  userId: string | null,
  input: Schemas["ViewDefaultPut"],
): Promise<ViewDefaultOut & { id: string; inserted: boolean }> {
  return (await sqlOne<ViewDefaultOut & { id: string; inserted: boolean }>(
    em,
    q`insert into view_defaults (id, workspace_id, user_id, view_key, filters, sort, display, grouping, hidden, updated_at)
       values (gen_random_uuid(), ${workspaceId}, ${userId}, ${input.viewKey}, ${JSON.stringify(input.filters ?? {})}::jsonb, ${input.sort ?? null}, ${input.display ?? null}, ${input.grouping ?? null}, ${JSON.stringify(input.hidden ?? [])}::jsonb, now())
       on conflict (workspace_id, view_key, user_id) do update
         set filters = excluded.filters, sort = excluded.sort, display = excluded.display,
             grouping = excluded.grouping, hidden = excluded.hidden, updated_at = excluded.updated_at
       returning id, ${raw(DEFAULT_COLUMNS)}, (xmax = 0) as inserted`,
  ))!;
}
