import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql, sqlOne } from "../../db/sql.js";
import { recordChanges } from "../../events/record-change.js";
import { requireAdmin } from "../../http/auth.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";
import { findById, resolveTeam } from "../shared/resolve.js";
import { checkViewFilters, checkViewSort, type ViewKind } from "./view-filters.js";

type Schemas = components["schemas"];
export type ViewOut = Schemas["View"];
export type ViewDefaultOut = Schemas["ViewDefault"];
type ViewCreate = Schemas["ViewCreate"];
type ViewUpdate = Schemas["ViewUpdate"];
type ViewDefaultPut = Schemas["ViewDefaultPut"];

interface ViewRow {
  id: string;
  name: string;
  kind: ViewKind;
  team_key: string | null;
  display: ViewOut["display"];
  grouping: ViewOut["grouping"];
  filters: Record<string, unknown>;
  sort: ViewOut["sort"];
  favorite: boolean;
}

const toView = (r: ViewRow): ViewOut => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  team: r.team_key,
  display: r.display,
  grouping: r.grouping,
  filters: r.filters,
  sort: r.sort,
  favorite: r.favorite,
});

const VIEW_SELECT = `select v.id, v.name, v.kind, t.key as team_key, v.display, v.grouping, v.filters, v.sort, v.favorite
                       from saved_views v left join teams t on t.id = v.team_id`;

/** The caller's own views, favorites first, then by name. Views are private to their owner. */
export async function listViews(scope: WorkspaceScope): Promise<ViewOut[]> {
  const rows = await sql<ViewRow>(
    scope.em,
    `${VIEW_SELECT} where v.workspace_id = ? and v.owner_id = ?
      order by v.favorite desc, lower(v.name), v.id`,
    [scope.workspace.id, scope.caller.userId],
  );
  return rows.map(toView);
}

const viewNotFound = (id: string) => `No saved view ${id} of yours in this workspace.`;

async function readView(scope: WorkspaceScope, em: EntityManager, id: string): Promise<ViewOut> {
  const row = await findById(id, viewNotFound(id), (id) =>
    sqlOne<ViewRow>(em, `${VIEW_SELECT} where v.id = ? and v.workspace_id = ? and v.owner_id = ?`, [
      id,
      scope.workspace.id,
      scope.caller.userId,
    ]),
  );
  return toView(row);
}

export async function createView(scope: WorkspaceScope, input: ViewCreate): Promise<ViewOut> {
  const kind = input.kind ?? "issues";
  const filters = input.filters ?? {};
  checkViewFilters(kind, filters);
  checkViewSort(kind, input.sort);
  const team = input.team != null ? await resolveTeam(scope, input.team) : null;
  return scope.em.transactional(async (em) => {
    const { id } = (await sqlOne<{ id: string }>(
      em,
      `insert into saved_views (id, workspace_id, owner_id, name, kind, team_id, display, grouping, filters, sort,
                                favorite, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, now(), now())
       returning id`,
      [
        scope.workspace.id,
        scope.caller.userId,
        input.name,
        kind,
        team?.id ?? null,
        input.display ?? "list",
        input.grouping ?? "status",
        JSON.stringify(filters),
        input.sort ?? null,
        input.favorite ?? false,
      ],
    ))!;
    await recordChanges(em, scope.workspace.id, [{ entity: "view", action: "created", id }]);
    return readView(scope, em, id);
  });
}

export async function updateView(scope: WorkspaceScope, id: string, input: ViewUpdate): Promise<void> {
  const team = input.team != null ? await resolveTeam(scope, input.team) : null;
  await scope.em.transactional(async (em) => {
    const view = await findById(id, viewNotFound(id), (id) =>
      sqlOne<{ id: string; kind: ViewKind }>(
        em,
        "select id, kind from saved_views where id = ? and workspace_id = ? and owner_id = ? for update",
        [id, scope.workspace.id, scope.caller.userId],
      ),
    );
    if (input.filters !== undefined) checkViewFilters(view.kind, input.filters);
    checkViewSort(view.kind, input.sort);
    const sets: string[] = [];
    const params: unknown[] = [];
    const set = (column: string, value: unknown, cast = "") => {
      sets.push(`${column} = ?${cast}`);
      params.push(value);
    };
    if (input.name !== undefined) set("name", input.name);
    if (input.team !== undefined) set("team_id", team?.id ?? null);
    if (input.display !== undefined) set("display", input.display);
    if (input.grouping !== undefined) set("grouping", input.grouping);
    if (input.filters !== undefined) set("filters", JSON.stringify(input.filters), "::jsonb");
    if (input.sort !== undefined) set("sort", input.sort);
    if (input.favorite !== undefined) set("favorite", input.favorite);
    await sql(em, `update saved_views set ${[...sets, "updated_at = now()"].join(", ")} where id = ?`, [
      ...params,
      view.id,
    ]);
    await recordChanges(em, scope.workspace.id, [{ entity: "view", action: "updated", id: view.id }]);
  });
}

export async function deleteView(scope: WorkspaceScope, id: string): Promise<void> {
  await scope.em.transactional(async (em) => {
    const deleted = await findById(id, viewNotFound(id), (id) =>
      sqlOne<{ id: string }>(
        em,
        "delete from saved_views where id = ? and workspace_id = ? and owner_id = ? returning id",
        [id, scope.workspace.id, scope.caller.userId],
      ),
    );
    await recordChanges(em, scope.workspace.id, [{ entity: "view", action: "deleted", id: deleted.id }]);
  });
}

interface DefaultRow {
  view_key: string;
  user_id: string | null;
  filters: Record<string, unknown>;
  sort: ViewDefaultOut["sort"];
  display: ViewDefaultOut["display"];
  grouping: ViewDefaultOut["grouping"];
  hidden: string[];
}

const toDefault = (r: DefaultRow): ViewDefaultOut => ({
  viewKey: r.view_key,
  scope: r.user_id ? "user" : "workspace",
  filters: r.filters,
  sort: r.sort,
  display: r.display,
  grouping: r.grouping,
  hidden: r.hidden,
});

/** The defaults in effect for the caller: per view key their own override, else the workspace baseline. */
export async function listViewDefaults(scope: WorkspaceScope, viewKey?: string): Promise<ViewDefaultOut[]> {
  const rows = await sql<DefaultRow>(
    scope.em,
    `select distinct on (view_key) view_key, user_id, filters, sort, display, grouping, hidden
       from view_defaults
      where workspace_id = ? and (user_id = ? or user_id is null) ${viewKey !== undefined ? "and view_key = ?" : ""}
      order by view_key, user_id nulls last`,
    [scope.workspace.id, scope.caller.userId, ...(viewKey !== undefined ? [viewKey] : [])],
  );
  return rows.map(toDefault);
}

export async function putViewDefault(scope: WorkspaceScope, input: ViewDefaultPut): Promise<ViewDefaultOut> {
  const scopeName = input.scope ?? "user";
  if (scopeName === "workspace") requireAdmin(scope.workspace, "set workspace view defaults");
  return scope.em.transactional(async (em) => {
    // The unique index (workspace, view key, user) with NULLS NOT DISTINCT makes this a true upsert for
    // the workspace baseline (user null) as well.
    const row = (await sqlOne<DefaultRow & { id: string; inserted: boolean }>(
      em,
      `insert into view_defaults (id, workspace_id, user_id, view_key, filters, sort, display, grouping, hidden, updated_at)
       values (gen_random_uuid(), ?, ?, ?, ?::jsonb, ?, ?, ?, ?::jsonb, now())
       on conflict (workspace_id, view_key, user_id) do update
         set filters = excluded.filters, sort = excluded.sort, display = excluded.display,
             grouping = excluded.grouping, hidden = excluded.hidden, updated_at = excluded.updated_at
       returning id, view_key, user_id, filters, sort, display, grouping, hidden, (xmax = 0) as inserted`,
      [
        scope.workspace.id,
        scopeName === "user" ? scope.caller.userId : null,
        input.viewKey,
        JSON.stringify(input.filters ?? {}),
        input.sort ?? null,
        input.display ?? null,
        input.grouping ?? null,
        JSON.stringify(input.hidden ?? []),
      ],
    ))!;
    await recordChanges(em, scope.workspace.id, [
      { entity: "view_default", action: row.inserted ? "created" : "updated", id: row.id },
    ]);
    return toDefault(row);
  });
}

export async function deleteViewDefault(
  scope: WorkspaceScope,
  viewKey: string,
  scopeName: "user" | "workspace" = "user",
): Promise<void> {
  if (scopeName === "workspace") requireAdmin(scope.workspace, "remove workspace view defaults");
  await scope.em.transactional(async (em) => {
    const rows = await sql<{ id: string }>(
      em,
      `delete from view_defaults where workspace_id = ? and view_key = ?
          and ${scopeName === "user" ? "user_id = ?" : "user_id is null"}
       returning id`,
      [scope.workspace.id, viewKey, ...(scopeName === "user" ? [scope.caller.userId] : [])],
    );
    if (rows.length === 0) throw new NotFound(`No ${scopeName} default for view "${viewKey}".`);
    await recordChanges(em, scope.workspace.id, [
      { entity: "view_default", action: "deleted", id: rows[0]!.id },
    ]);
  });
}
