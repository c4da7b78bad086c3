import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import { recordChanges } from "../../events/record-change.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";
import { findById, resolveTeam } from "../shared/resolve.js";
import { SavedView, ViewDefault } from "./view.entity.js";
import { checkViewFilters, checkViewSort, type ViewKind } from "./view-filters.js";

type Schemas = components["schemas"];
export type ViewOut = Schemas["View"];
export type ViewDefaultOut = Schemas["ViewDefault"];
type ViewCreate = Schemas["ViewCreate"];
type ViewUpdate = Schemas["ViewUpdate"];
type ViewDefaultPut = Schemas["ViewDefaultPut"];

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

const viewNotFound = (id: string) => `No saved view ${id} of yours in this workspace.`;

/** One of the caller's views, locked for a change; 404 for anyone else's. */
function lockView(scope: WorkspaceScope, em: EntityManager, id: string) {
  return findById(id, viewNotFound(id), (id) =>
    em.findOne(
      SavedView,
      { id, workspace: scope.workspace.id, owner: scope.caller.userId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    ),
  );
}

export async function createView(scope: WorkspaceScope, input: ViewCreate): Promise<ViewOut> {
  const kind = input.kind ?? "issues";
  const filters = input.filters ?? {};
  checkViewFilters(kind, filters);
  checkViewSort(kind, input.sort);
  const team = input.team != null ? await resolveTeam(scope, input.team) : null;
  const stored = {
    name: input.name,
    kind,
    display: input.display ?? "list",
    grouping: input.grouping ?? "status",
    filters,
    sort: input.sort ?? null,
    favorite: input.favorite ?? false,
  };
  return scope.em.transactional(async (em) => {
    const view = em.create(SavedView, {
      ...stored,
      workspace: scope.workspace.id,
      owner: scope.caller.userId,
      team: team?.id ?? null,
    });
    await em.flush();
    await recordChanges(em, scope.workspace.id, [{ entity: "view", action: "created", id: view.id }]);
    // The answer is what was stored, with the team by key.
    return { id: view.id, ...stored, team: team?.key ?? null };
  });
}

export async function updateView(scope: WorkspaceScope, id: string, input: ViewUpdate): Promise<void> {
  const team = input.team != null ? await resolveTeam(scope, input.team) : null;
  await scope.em.transactional(async (em) => {
    const view = await lockView(scope, em, id);
    const kind = view.kind as ViewKind;
    if (input.filters !== undefined) checkViewFilters(kind, input.filters);
    checkViewSort(kind, input.sort);
    const fields = {
      name: input.name,
      team: input.team === undefined ? undefined : (team?.id ?? null),
      display: input.display,
      grouping: input.grouping,
      filters: input.filters,
      sort: input.sort,
      favorite: input.favorite,
    };
    em.assign(view, { ...fields, updatedAt: new Date() }, { ignoreUndefined: true });
    await em.flush();
    await recordChanges(em, scope.workspace.id, [{ entity: "view", action: "updated", id: view.id }]);
  });
}

export async function deleteView(scope: WorkspaceScope, id: string): Promise<void> {
  await scope.em.transactional(async (em) => {
    await findById(
      id,
      viewNotFound(id),
      async (id) =>
        (await em.nativeDelete(SavedView, {
          id,
          workspace: scope.workspace.id,
          owner: scope.caller.userId,
        })) || undefined,
    );
    await recordChanges(em, scope.workspace.id, [{ entity: "view", action: "deleted", id }]);
  });
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

export async function putViewDefault(scope: WorkspaceScope, input: ViewDefaultPut): Promise<ViewDefaultOut> {
  const scopeName = input.scope ?? "user";
  return scope.em.transactional(async (em) => {
    // The unique index (workspace, view key, user) with NULLS NOT DISTINCT makes this a true upsert for
    // the workspace baseline (user null) as well.
    const row = (await sqlOne<ViewDefaultOut & { id: string; inserted: boolean }>(
      em,
      q`insert into view_defaults (id, workspace_id, user_id, view_key, filters, sort, display, grouping, hidden, updated_at)
       values (gen_random_uuid(), ${scope.workspace.id}, ${scopeName === "user" ? scope.caller.userId : null}, ${input.viewKey}, ${JSON.stringify(input.filters ?? {})}::jsonb, ${input.sort ?? null}, ${input.display ?? null}, ${input.grouping ?? null}, ${JSON.stringify(input.hidden ?? [])}::jsonb, now())
       on conflict (workspace_id, view_key, user_id) do update
         set filters = excluded.filters, sort = excluded.sort, display = excluded.display,
             grouping = excluded.grouping, hidden = excluded.hidden, updated_at = excluded.updated_at
       returning id, ${raw(DEFAULT_COLUMNS)}, (xmax = 0) as inserted`,
    ))!;
    const { id, inserted, ...viewDefault } = row;
    await recordChanges(em, scope.workspace.id, [
      { entity: "view_default", action: inserted ? "created" : "updated", id },
    ]);
    return viewDefault;
  });
}

export async function deleteViewDefault(
  scope: WorkspaceScope,
  viewKey: string,
  scopeName: "user" | "workspace" = "user",
): Promise<void> {
  await scope.em.transactional(async (em) => {
    const existing = await em.findOne(
      ViewDefault,
      { workspace: scope.workspace.id, viewKey, user: scopeName === "user" ? scope.caller.userId : null },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!existing) throw new NotFound(`No ${scopeName} default for view "${viewKey}".`);
    await em.nativeDelete(ViewDefault, existing.id);
    await recordChanges(em, scope.workspace.id, [
      { entity: "view_default", action: "deleted", id: existing.id },
    ]);
  });
}
