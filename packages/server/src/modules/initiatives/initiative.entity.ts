import { randomUUID } from "node:crypto";
import { defineEntity, type InferEntity, p } from "@mikro-orm/core";
import { initiativeStatusValues } from "@tracker/sdk/schema";
import { User } from "../users/user.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

export const Initiative = defineEntity({
  name: "Initiative",
  tableName: "initiatives",
  indexes: [
    {
      name: "initiatives_workspace_lower_name_unique",
      expression: `create unique index "initiatives_workspace_lower_name_unique" on "initiatives" ("workspace_id", lower("name"))`,
    },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    name: p.text(),
    description: p.text().nullable(),
    status: p.enum([...initiativeStatusValues]).default("planned"),
    lead: () => p.manyToOne(User).nullable().deleteRule("set null"),
    startDate: p.date().nullable(),
    targetDate: p.date().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IInitiative = InferEntity<typeof Initiative>;
