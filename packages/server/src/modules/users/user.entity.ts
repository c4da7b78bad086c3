import { randomUUID } from "node:crypto";
import { defineEntity, type InferEntity, p } from "@mikro-orm/core";

export const User = defineEntity({
  name: "User",
  tableName: "users",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    /** Stored lower-cased: people type their address in many cases, and it is their identity. */
    email: p.text().unique(),
    name: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IUser = InferEntity<typeof User>;
