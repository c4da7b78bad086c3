import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { type IUser, User } from "./user.entity.js";

export type UserRef = Pick<IUser, "id" | "name" | "email">;

/** Finds a user by email, or creates one when a name is given; undefined when neither is possible. */
export async function findOrCreateUser(
  em: EntityManager,
  email: string,
  name: string | undefined,
): Promise<UserRef | undefined> {
  const address = email.trim().toLowerCase();
  const existing = await em.findOne(User, { email: address });
  if (existing) return { id: existing.id, name: existing.name, email: existing.email };
  if (!name?.trim()) return undefined;
  // Created meanwhile by a concurrent request: the upsert answers that user instead of failing.
  const [created] = await em
    .createQueryBuilder(User)
    .insert({ id: randomUUID(), email: address, name: name.trim(), createdAt: new Date() })
    .onConflict("email")
    .merge(["email"])
    .returning(["id", "name", "email"])
    .execute<UserRef[]>("all");
  return created;
}
