import { defineEntity, type InferEntity, p } from "@mikro-orm/core";
import { initiativeStatusValues } from "@tracker/sdk/schema";
import { createdTimestamp, uuidPrimaryKey, workspaceUniqueLowerName } from "../../entity-columns.js";
import { User } from "../users/user.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

export const Initiative = defineEntity({
  name: "Initiative",
  tableName: "initiatives",
  indexes: [workspaceUniqueLowerName("initiatives")],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    name: p.text(),
    description: p.text().nullable(),
    status: p.enum([...initiativeStatusValues]).default("planned"),
    lead: () => p.manyToOne(User).nullable().deleteRule("set null"),
    startDate: p.date().nullable(),
    targetDate: p.date().nullable(),
    createdAt: createdTimestamp(),
    updatedAt: createdTimestamp(),
  },
});
export type IInitiative = InferEntity<typeof Initiative>;
