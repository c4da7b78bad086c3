import type { EntityManager } from "@mikro-orm/postgresql";
import { fieldPath, Invalid } from "../../http/problem.js";
import { User } from "./user.entity.js";

/**
 * Passwords (openapi.yaml, "Sessions"): Argon2id with the library's defaults (19 MiB, 2 passes, one
 * lane: OWASP's first recommendation), stored as the PHC string, which carries its own salt and
 * parameters so stronger settings later still verify old hashes.
 */

/**
 * The Argon2 library hashes in its own allocator (mimalloc), which by default keeps freed memory for the
 * thread that used it, and the idle worker threads that hashed never hand it back: sign-ins left the
 * server 100–150 MB larger for good (bench/README.md, "Memory"). Purging at once returns each hash's
 * 19 MiB when it is done, for ~4 ms more a hash. The allocator reads the setting when the library loads,
 * so it is set before the import; an operator's own setting wins.
 */
process.env.MIMALLOC_PURGE_DELAY ??= "0";
const argon2 = import("@node-rs/argon2");

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

/** The password a body gives, checked as the contract bounds it (400 naming `field`). */
export function checkPassword(password: string, field = "password"): string {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new Invalid(`A password has ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`, [
      { path: fieldPath("body", field), message: `must have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters` },
    ]);
  }
  return password;
}

export function hashPassword(password: string): Promise<string> {
  return argon2.then(({ hash }) => hash(password, { algorithm: 2 /* Argon2id */ }));
}

/**
 * A hash of nothing anyone knows: verifying against it when no account has the address (or it has no
 * password) costs what a real check costs, so the answer's timing does not tell whether an account exists.
 */
let decoy: Promise<string> | undefined;

/** Whether `password` matches `stored`; with no stored hash, a decoy is checked and the answer is false. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    decoy ??= hashPassword(`decoy-${Math.random()}`);
    const { verify } = await argon2;
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  const { verify } = await argon2;
  return verify(stored, password).catch(() => false);
}

/** Sets (or replaces) a person's password. */
export async function setPassword(em: EntityManager, userId: string, password: string): Promise<void> {
  await em.nativeUpdate(User, userId, { passwordHash: await hashPassword(checkPassword(password)) });
}
