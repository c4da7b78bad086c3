import type { Caller, WorkspaceAccess } from "./auth.js";
import { WORKSPACE_HEADER } from "./contract.js";
import type { OperationStep } from "./operation-call.js";
import { Forbidden, Invalid, WorkspaceRequired } from "./problem.js";

/**
 * The step that resolves the workspace an operation acts in, for the operations the contract scopes to
 * one (they take `X-Service-Workspace`), and says it in the response's `X-Service-Workspace` header.
 */
export const workspace: OperationStep = (call, next) => {
  const caller = call.scope.caller;
  if (call.op.workspaceScoped && caller) {
    const q = call.query.workspace;
    const resolved = resolveWorkspace(
      caller,
      call.ctx.get(WORKSPACE_HEADER) || undefined,
      Array.isArray(q) ? String(q[0]) : (q as string | undefined) || undefined,
    );
    call.scope.workspace = resolved;
    call.ctx.set(WORKSPACE_HEADER, resolved.slug);
  }
  return next();
};

function matches(ws: { id: string; slug: string; name: string }, ref: string): boolean {
  return ws.id === ref || ws.slug === ref.toLowerCase() || ws.name.toLowerCase() === ref.toLowerCase();
}

/**
 * The workspace `ref` (slug, name or id) names among those the caller's key reaches; anything else, existing
 * or not, is 403 `workspace_forbidden` (a pinned key's other workspaces included).
 */
export function reachableWorkspace(caller: Caller, ref: string): WorkspaceAccess {
  const ws = caller.workspaces.find((w) => matches(w, ref));
  if (ws) return ws;
  throw new Forbidden(
    "workspace_forbidden",
    caller.keyScope === "workspace"
      ? "This workspace key is pinned to its own workspace and reaches no other."
      : `You are not a member of a workspace named "${ref}".`,
  );
}

/**
 * Resolves the workspace a request acts in (openapi.yaml, "Authentication"):
 * header, then query parameter, then the key's active workspace, then the owner's only workspace.
 * Membership is checked on every call (the memberships are read with the key, or confirmed unchanged by the
 * request's own statement: `http/caller-cache.ts`), so losing access cuts a key off at once.
 */
export function resolveWorkspace(
  caller: Caller,
  headerRef: string | undefined,
  queryRef: string | undefined,
): WorkspaceAccess {
  const reachable = caller.workspaces;
  const pick = (ref: string) => reachable.find((w) => matches(w, ref));
  const named = headerRef || queryRef;
  if (headerRef && queryRef) {
    const a = pick(headerRef);
    const b = pick(queryRef);
    if ((a?.id ?? headerRef) !== (b?.id ?? queryRef)) {
      throw new Invalid(
        "The X-Service-Workspace header and the workspace query parameter name different workspaces; give one.",
      );
    }
  }
  if (named) return reachableWorkspace(caller, named);
  if (caller.keyScope === "workspace") {
    const ws = reachable[0];
    if (!ws)
      throw new Forbidden("workspace_forbidden", "The key's owner is no longer a member of its workspace.");
    return ws;
  }
  const active = caller.activeWorkspaceId
    ? reachable.find((w) => w.id === caller.activeWorkspaceId)
    : undefined;
  if (active) return active;
  if (reachable.length === 1) return reachable[0]!;
  if (reachable.length === 0)
    throw new Forbidden("workspace_forbidden", "You are not a member of any workspace.");
  throw new WorkspaceRequired(reachable.map(({ id, slug, name }) => ({ id, slug, name })));
}
