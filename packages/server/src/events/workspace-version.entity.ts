import { defineEntity, p } from "@mikro-orm/core";
import { Workspace } from "../modules/workspaces/workspace.entity.js";

/**
 * A workspace's list version: bumped at the commit of every transaction that records a change in it
 * (db/functions/workspace-version.ts), so a list answered at one version is the same list while it holds. The issue list's
 * ETag is derived from it (`modules/issues/list/revalidate.query.ts`), and a request naming that tag is
 * answered 304 after reading this one row. Created by migration `workspace_versions`.
 */
export const WorkspaceVersion = defineEntity({
  name: "WorkspaceVersion",
  tableName: "workspace_versions",
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule("cascade"),
    version: p.bigint(),
  },
});
