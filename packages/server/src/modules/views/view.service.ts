import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";
import { findById, resolveTeam } from "../shared/resolve.query.js";
import { SavedView, ViewDefault } from "./view.entity.js";
import { readView, upsertViewDefault } from "./view.query.js";
import { checkViewFilters, checkViewSort, type ViewKind } from "./view-filters.js";

type Schemas = components["schemas"];
export type ViewOut = Schemas["View"];
export type ViewDefaultOut = Schemas["ViewDefault"];
type ViewCreate = Schemas["ViewCreate"];
type ViewUpdate = Schemas["ViewUpdate"];
type ViewDefaultPut = Schemas["ViewDefaultPut"];

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

/** Changes one of the caller's views and answers it as it is now (the contract's updateView). */
export async function updateView(scope: WorkspaceScope, id: string, input: ViewUpdate): Promise<ViewOut> {
  const team = input.team != null ? await resolveTeam(scope, input.team) : null;
  return scope.em.transactional(async (em) => {
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
    const updated = await readView(em, view.id);
    if (!updated) throw new NotFound(viewNotFound(id));
    return updated;
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

export async function putViewDefault(scope: WorkspaceScope, input: ViewDefaultPut): Promise<ViewDefaultOut> {
  const scopeName = input.scope ?? "user";
  return scope.em.transactional(async (em) => {
    const row = await upsertViewDefault(
      em,
      scope.workspace.id,
      scopeName === "user" ? scope.caller.userId : null,
      input,
    );
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
