import { defineEntity, type InferEntity, p } from "@mikro-orm/core";
import { createdTimestamp, uuidPrimaryKey, workspaceUniqueLowerName } from "../../entity-columns.js";
import { Workspace } from "../workspaces/workspace.entity.js";

/** Labels belong to the workspace; names are unique per workspace regardless of case. */
export const Label = defineEntity({
  name: "Label",
  tableName: "labels",
  indexes: [workspaceUniqueLowerName("labels")],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    name: p.text(),
    color: p.text(),
    description: p.text().nullable(),
    createdAt: createdTimestamp(),
    updatedAt: createdTimestamp(),
  },
});
export type ILabel = InferEntity<typeof Label>;
