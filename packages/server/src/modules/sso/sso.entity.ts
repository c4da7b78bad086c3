import { defineEntity, type InferEntity, p } from "@mikro-orm/core";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { Workspace } from "../workspaces/workspace.entity.js";

/**
 * A workspace's OpenID Connect provider (openapi.yaml, "Single sign-on", `PUT /sso`). The client secret is
 * sealed, not hashed: the server sends it to the provider with every code exchange.
 */
export const SsoSettings = defineEntity({
  name: "SsoSettings",
  tableName: "sso_settings",
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).unique().deleteRule("cascade"),
    issuer: p.text(),
    clientId: p.text(),
    /** The client secret, sealed with the server's secret box (`modules/codehost/secret-box.ts`). */
    clientSecretSealed: p.text(),
    allowedDomains: p.array().columnType("text[]").defaultRaw("'{}'"),
    enabled: p.boolean().default(true),
    createdAt: createdTimestamp(),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ISsoSettings = InferEntity<typeof SsoSettings>;

/**
 * A sign-in on its way through the provider (`GET /auth/sso/{workspace}` to `/auth/sso/callback`): found by
 * the SHA-256 of its `state`, it holds the PKCE verifier and the nonce the callback checks. Used once; ten
 * minutes at most.
 */
export const SsoLogin = defineEntity({
  name: "SsoLogin",
  tableName: "sso_logins",
  properties: {
    stateHash: p.text().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    codeVerifier: p.text(),
    nonce: p.text(),
    redirectUri: p.text(),
    returnTo: p.text(),
    expiresAt: p.datetime(),
  },
});
