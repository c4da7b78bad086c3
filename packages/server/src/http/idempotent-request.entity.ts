import { defineEntity, p } from "@mikro-orm/core";

/**
 * The stored answer of a `POST` or `PATCH` sent with an `Idempotency-Key` (the contract's "Idempotent
 * writes"): written in the transaction of the work it guards, so the work and its record commit together.
 * Keyed by the API key that sent it; kept 24 hours, then pruned. No foreign key to `api_keys`: checking it
 * would lock the key's row for every write, and the records of a deleted key are never read again (key ids
 * are never reused) and go with the next prune.
 */
export const IdempotentRequest = defineEntity({
  name: "IdempotentRequest",
  tableName: "idempotent_requests",
  indexes: [{ properties: ["createdAt"] }],
  properties: {
    apiKeyId: p.uuid().primary(),
    key: p.text().primary(),
    /** SHA-256 of the method, path, query, workspace and body: a repeat must match it exactly. */
    fingerprint: p.text(),
    status: p.smallint(),
    /** The `X-Service-Workspace` the first answer carried, if any. */
    workspaceSlug: p.text().nullable(),
    /** The first answer's JSON body, as sent. */
    body: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
