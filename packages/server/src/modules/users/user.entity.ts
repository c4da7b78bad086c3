import { defineEntity, type InferEntity, p } from "@mikro-orm/core";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";

export const User = defineEntity({
  name: "User",
  tableName: "users",
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
    createdAt: createdTimestamp(),
  },
});
export type IUser = InferEntity<typeof User>;
