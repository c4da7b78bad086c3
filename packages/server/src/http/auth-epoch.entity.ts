import { defineEntity, p } from "@mikro-orm/core";

/**
 * One row (`id` 1) whose `version` grows, in the same transaction, with every change to what
 * authentication reads (migration `…_auth_epoch`): a key deleted or re-pointed, a membership added,
 * removed or re-roled, a workspace renamed or deleted, a user renamed or deleted. A server may keep a
 * caller it authenticated and trust it for a read exactly while the read's own statement sees the version
 * the caller was read at (`http/caller-cache.ts`).
 */
export const AuthEpoch = defineEntity({
  name: "AuthEpoch",
  tableName: "auth_epoch",
  properties: {
    id: p.smallint().primary().autoincrement(false),
    version: p.bigint().default(0),
  },
});
