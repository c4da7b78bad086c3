import { defineEntity, type InferEntity, p } from "@mikro-orm/core";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { Workspace } from "../workspaces/workspace.entity.js";

export const User = defineEntity({
  name: "User",
  tableName: "users",
  indexes: [
    // An agent's name is how people mention it and delegate to it (openapi.yaml, `createAgent`).
    {
      name: "users_agent_workspace_lower_name_unique",
      expression: `create unique index "users_agent_workspace_lower_name_unique" on "users" ("agent_workspace_id", lower("name")) where "kind" = 'agent'`,
    },
  ],
  properties: {
    id: uuidPrimaryKey(),
    /** Stored lower-cased: people type their address in many cases, and it is their identity. */
    email: p.text().unique(),
    name: p.text(),
    /** Argon2id (PHC string) of the person's password; null until one is set (setup, invite, reset). */
    passwordHash: p.text().nullable(),
    /**
     * Held for a person an import named (openapi.yaml, `importIssues`) who is no member yet: no membership,
     * no password. An invite to its email claims it (`acceptInvite`).
     */
    placeholder: p.boolean().default(false),
    /** `agent`: an app user of one workspace (openapi.yaml, `listAgents`), never a person. */
    kind: p.enum(["person", "agent"]).default("person"),
    avatarUrl: p.text().nullable(),
    /** The workspace an agent belongs to; null for people. */
    agentWorkspace: () => p.manyToOne(Workspace).nullable().deleteRule("cascade"),
    createdAt: createdTimestamp(),
  },
});
export type IUser = InferEntity<typeof User>;
