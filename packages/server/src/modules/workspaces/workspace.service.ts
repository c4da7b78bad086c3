import type { EntityManager } from "@mikro-orm/postgresql";
import { recordChanges } from "../../events/record-change.query.js";
import type { Caller } from "../../http/auth.js";
import { Conflict, fieldPath, Invalid } from "../../http/problem.js";
import { reachableWorkspace } from "../../http/workspace.js";
import { ApiKey } from "../api-keys/api-key.entity.js";
import { Session } from "../sessions/session.entity.js";
import { type IWorkspace, type MemberRole, Membership, Workspace } from "./workspace.entity.js";

export type WorkspaceRef = Pick<IWorkspace, "id" | "name" | "slug">;

export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return slug.length >= 2 ? slug : `workspace${slug ? `-${slug}` : ""}`;
}

/**
 * Creates a workspace with `ownerId` as its admin. An explicit slug that is taken is a conflict; a slug
 * derived from the name gets a numeric suffix instead, as people expect when two teams pick one name.
 * Call inside a transaction.
 */
export async function insertWorkspace(
  em: EntityManager,
  ownerId: string,
  name: string,
  explicitSlug?: string,
): Promise<WorkspaceRef> {
  const trimmed = name.trim();
  if (!trimmed)
    throw new Invalid("A workspace needs a name.", [
      { path: fieldPath("body", "name"), message: "must not be empty" },
    ]);
  const base = explicitSlug ?? slugify(trimmed);
  let slug = base;
  for (let n = 2; ; n++) {
    if ((await em.count(Workspace, { slug })) === 0) break;
    if (explicitSlug) throw new Conflict("conflict", `The workspace slug "${slug}" is taken.`);
    slug = `${base.slice(0, 36)}-${n}`;
  }
  const workspace = em.create(Workspace, { name: trimmed, slug });
  em.create(Membership, { workspace, user: ownerId, role: "admin" });
  await em.flush();
  return { id: workspace.id, name: workspace.name, slug: workspace.slug };
}

/** Makes `userId` a member with `role`; written at once (with anything else pending in `em`). */
export async function addMember(em: EntityManager, workspaceId: string, userId: string, role: MemberRole) {
  em.create(Membership, { workspace: workspaceId, user: userId, role });
  await em.flush();
}

/** The workspace a request would act in when it names none (active one, else the only one), if any. */
export function defaultWorkspaceId(caller: Caller, reachable: { id: string }[]): string | null {
  if (caller.keyScope === "workspace") return reachable[0]?.id ?? null;
  if (caller.activeWorkspaceId && reachable.some((w) => w.id === caller.activeWorkspaceId)) {
    return caller.activeWorkspaceId;
  }
  return reachable.length === 1 ? reachable[0]!.id : null;
}

export function listWorkspaces(caller: Caller) {
  const reachable = caller.workspaces;
  const active = defaultWorkspaceId(caller, reachable);
  return reachable.map((w) => ({
    id: w.id,
    name: w.name,
    slug: w.slug,
    role: w.role,
    isActive: w.id === active,
  }));
}

export async function createWorkspace(em: EntityManager, caller: Caller, name: string, slug?: string) {
  return em.transactional(async (tem) => {
    const ws = await insertWorkspace(tem, caller.userId, name, slug);
    await rememberActive(tem, caller, ws.id);
    return ws;
  });
}

/** The caller's active workspace, kept on its key or, for a signed-in browser, its session. */
async function rememberActive(em: EntityManager, caller: Caller, workspaceId: string): Promise<void> {
  if (caller.via === "session")
    await em.nativeUpdate(Session, caller.keyId, { activeWorkspace: workspaceId });
  else await em.nativeUpdate(ApiKey, caller.keyId, { activeWorkspace: workspaceId });
}

export async function setActiveWorkspace(em: EntityManager, caller: Caller, ref: string) {
  const ws = reachableWorkspace(caller, ref);
  if (caller.keyScope === "account") {
    // A signed-in browser keeps its choice on its session, a key on the key.
    await rememberActive(em, caller, ws.id);
  }
  return { id: ws.id, name: ws.name, slug: ws.slug };
}

export async function renameWorkspace(em: EntityManager, workspaceId: string, name: string | undefined) {
  if (name === undefined) return;
  const trimmed = name.trim();
  if (!trimmed)
    throw new Invalid("A workspace needs a name.", [
      { path: fieldPath("body", "name"), message: "must not be empty" },
    ]);
  await em.transactional(async (tem) => {
    await tem.nativeUpdate(Workspace, workspaceId, { name: trimmed });
    await recordChanges(tem, workspaceId, [{ entity: "workspace", action: "updated", id: workspaceId }]);
  });
}
