import { randomUUID } from "node:crypto";
import { defineEntity, type InferEntity, p } from "@mikro-orm/core";
import { Workspace } from "../workspaces/workspace.entity.js";

/** Labels belong to the workspace; names are unique per workspace regardless of case. */
export const Label = defineEntity({
  name: "Label",
  tableName: "labels",
  indexes: [
    {
      name: "labels_workspace_lower_name_unique",
      expression: `create unique index "labels_workspace_lower_name_unique" on "labels" ("workspace_id", lower("name"))`,
    },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    name: p.text(),
    color: p.text(),
    description: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ILabel = InferEntity<typeof Label>;
