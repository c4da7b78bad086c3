import { defineEntity, type InferEntity, p } from "@mikro-orm/core";
import { apiKeyScopeValues, type components } from "@tracker/sdk/schema";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { User } from "../users/user.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

export type ApiKeyScope = components["schemas"]["ApiKeyScope"];

export const ApiKey = defineEntity({
  name: "ApiKey",
  tableName: "api_keys",
  indexes: [{ properties: ["user"] }],
  properties: {
    id: uuidPrimaryKey(),
    user: () => p.manyToOne(User).deleteRule("cascade"),
    scope: p.enum([...apiKeyScopeValues]),
    /** The workspace a workspace key is pinned to; null for account keys. */
    workspace: () => p.manyToOne(Workspace).nullable().deleteRule("cascade"),
    /** An account key's session-active workspace (PUT /workspaces/active). */
    activeWorkspace: () => p.manyToOne(Workspace).nullable().deleteRule("set null"),
    name: p.text(),
    /** SHA-256 of the token: the token itself is shown once and never stored. */
    tokenHash: p.text().unique(),
    lastUsedAt: p.datetime().nullable(),
    createdAt: createdTimestamp(),
  },
});
export type IApiKey = InferEntity<typeof ApiKey>;
