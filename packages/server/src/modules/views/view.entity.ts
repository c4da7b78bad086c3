import { defineEntity, p } from "@mikro-orm/core";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { Team } from "../teams/team.entity.js";
import { User } from "../users/user.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

/** A saved view: private to its owner; `filters` are interpreted by the issue filter engine. */
export const SavedView = defineEntity({
  name: "SavedView",
  tableName: "saved_views",
  indexes: [{ properties: ["workspace", "owner"] }],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    owner: () => p.manyToOne(User).deleteRule("cascade"),
    name: p.text(),
    kind: p.text(),
    team: () => p.manyToOne(Team).nullable().deleteRule("set null"),
    display: p.text(),
    grouping: p.text(),
    filters: p.json<Record<string, unknown>>(),
    sort: p.text().nullable(),
    favorite: p.boolean().default(false),
    createdAt: createdTimestamp(),
    updatedAt: createdTimestamp(),
  },
});

/** A view's defaults: one per user (scope user) or the workspace baseline (user null). */
export const ViewDefault = defineEntity({
  name: "ViewDefault",
  tableName: "view_defaults",
  indexes: [
    {
      name: "view_defaults_scope_unique",
      expression: `create unique index "view_defaults_scope_unique" on "view_defaults" ("workspace_id", "view_key", "user_id") nulls not distinct`,
    },
  ],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    user: () => p.manyToOne(User).nullable().deleteRule("cascade"),
    viewKey: p.text(),
    filters: p.json<Record<string, unknown>>(),
    sort: p.text().nullable(),
    display: p.text().nullable(),
    grouping: p.text().nullable(),
    hidden: p.json<string[]>(),
    updatedAt: createdTimestamp(),
  },
});
