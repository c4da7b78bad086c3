import { defineEntity, type InferEntity, p } from "@mikro-orm/core";
import { apiKeyAccessValues, apiKeyScopeValues, type components } from "@tracker/sdk/schema";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { User } from "../users/user.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

export type ApiKeyScope = components["schemas"]["ApiKeyScope"];
export type ApiKeyAccess = components["schemas"]["ApiKeyAccess"];

export const ApiKey = defineEntity({
  name: "ApiKey",
  tableName: "api_keys",
  indexes: [{ properties: ["user"] }],
  properties: {
    id: uuidPrimaryKey(),
    user: () => p.manyToOne(User).deleteRule("cascade"),
    scope: p.enum([...apiKeyScopeValues]),
    /** What the key may do within its owner's role (`rules/permissions.ts`); `admin` for keys older than levels. */
    access: p.enum([...apiKeyAccessValues]).default("admin"),
    /** When the key stops working (401 `key_expired`); null: never. */
    expiresAt: p.datetime().nullable(),
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
