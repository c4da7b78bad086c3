import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { fieldPath, Invalid } from "../../http/problem.js";
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

/**
 * `PATCH /me`: the caller's own name (openapi.yaml, `updateMe`), trimmed; only spaces is 400. The name
 * is a column authentication reads, so the rename bumps `auth_epoch` (migration `…_auth_epoch`) and
 * cached callers are read afresh.
 */
export async function updateMe(em: EntityManager, me: UserRef, body: { name?: string }): Promise<UserRef> {
  if (body.name === undefined) return me;
  const name = body.name.trim();
  if (!name)
    throw new Invalid("A name cannot be only spaces.", [
      { path: fieldPath("body", "name"), message: "must not be blank" },
    ]);
  await em.nativeUpdate(User, me.id, { name });
  return { ...me, name };
}
