import { defineEntity, p } from "@mikro-orm/core";

/**
 * What the OAuth authorization server keeps (migration `…_oauth_store`; statements in
 * `oauth/store.query.ts`): one row per model of `oidc-provider` (access and refresh tokens, codes, device
 * codes, clients, grants, sessions, interactions, the server's shared secrets), keyed by the model's kind
 * and the SHA-256 of its id. Known to the ORM so that its schema is checked against the migrations.
 */
export const OAuthStoreRow = defineEntity({
  name: "OAuthStoreRow",
  tableName: "oauth_store",
  indexes: [
    {
      name: "oauth_store_grant_id_index",
      expression: `create index "oauth_store_grant_id_index" on "oauth_store" ("grant_id") where grant_id is not null`,
    },
    {
      name: "oauth_store_user_code_index",
      expression: `create index "oauth_store_user_code_index" on "oauth_store" ("user_code") where user_code is not null`,
    },
    {
      name: "oauth_store_uid_index",
      expression: `create index "oauth_store_uid_index" on "oauth_store" ("uid") where uid is not null`,
    },
    {
      name: "oauth_store_expires_at_index",
      expression: `create index "oauth_store_expires_at_index" on "oauth_store" ("expires_at") where expires_at is not null`,
    },
  ],
  properties: {
    kind: p.text().primary(),
    idHash: p.text().primary(),
    payload: p.json(),
    grantId: p.text().nullable(),
    userCode: p.text().nullable(),
    uid: p.text().nullable(),
    expiresAt: p.datetime().nullable(),
    consumedAt: p.datetime().nullable(),
  },
});
