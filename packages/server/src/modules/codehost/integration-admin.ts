import type { WorkspaceScope } from "../../http/handler.js";
import { Forbidden } from "../../http/problem.js";

/**
 * Who may manage the workspace's integrations (the code-host connection, outbound webhooks): its admins,
 * as for the other admin-only operations (`requireAdmin` in http/auth.ts); others get 403 `admin_required`.
 * Kept as one function so the rule has one home.
 */
export function requireIntegrationAdmin(scope: WorkspaceScope, what: string): void {
  if (scope.workspace.role !== "admin")
    throw new Forbidden("admin_required", `Only workspace admins may ${what}.`);
}
