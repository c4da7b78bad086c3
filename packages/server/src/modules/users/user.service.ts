import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { sqlOne } from "../../db/sql.js";

export interface UserRow {
  id: string;
  name: string;
  email: string;
}

/** Finds a user by email, or creates one when a name is given; undefined when neither is possible. */
export async function findOrCreateUser(
  em: EntityManager,
  email: string,
  name: string | undefined,
): Promise<UserRow | undefined> {
  const address = email.trim().toLowerCase();
  const existing = await sqlOne<UserRow>(em, "select id, name, email from users where email = ?", [address]);
  if (existing) return existing;
  if (!name?.trim()) return undefined;
  const created = await sqlOne<UserRow>(
    em,
    `insert into users (id, email, name, created_at) values (?, ?, ?, now())
     on conflict (email) do update set email = excluded.email
     returning id, name, email`,
    [randomUUID(), address, name.trim()],
  );
  return created;
}
