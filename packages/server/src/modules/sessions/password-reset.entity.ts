import { defineEntity, p } from "@mikro-orm/core";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { User } from "../users/user.entity.js";

/**
 * A password reset link an admin made (openapi.yaml, `POST /members/{userId}/password-reset`): the token
 * is shown once and stored as its SHA-256; used once, within its day.
 */
export const PasswordReset = defineEntity({
  name: "PasswordReset",
  tableName: "password_resets",
  indexes: [{ properties: ["user"] }],
  properties: {
    id: uuidPrimaryKey(),
    user: () => p.manyToOne(User).deleteRule("cascade"),
    tokenHash: p.text().unique(),
    createdAt: createdTimestamp(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
