import type { EntityManager } from "@mikro-orm/postgresql";
import type { Context } from "koa";
import type { Caller } from "../../http/auth.js";
import { hashToken } from "../../http/auth.js";
import { HttpProblem, NotFound, Unauthenticated } from "../../http/problem.js";
import {
  clearSessionCookie,
  newSessionToken,
  SESSION_DAYS,
  sessionHashOf,
  setSessionCookie,
} from "../../http/session.js";
import { checkPassword, hashPassword, verifyPassword } from "../users/password.js";
import { User } from "../users/user.entity.js";
import { Session } from "./session.entity.js";
import { listSessions, sessionInfo } from "./session.query.js";
import { clearAccount, recordFailure, refuseWhileThrottled } from "./sign-in-throttle.query.js";

/**
 * Signing in and out (openapi.yaml, "Sessions"). A sign-in always makes a new session with a new random
 * token and deletes the one the request's cookie named, if any: a token someone planted in the browser
 * before sign-in is never the signed-in one (session fixation).
 */
export async function signIn(em: EntityManager, ctx: Context, email: string, password: string) {
  const account = email.trim().toLowerCase();
  await refuseWhileThrottled(em, account, ctx.ip);
  const user = await em.findOne(
    User,
    { email: account },
    { fields: ["id", "name", "email", "passwordHash"] },
  );
  // Checked even for no account (against a decoy): the same time and the same answer either way.
  const ok = await verifyPassword(user?.passwordHash, password);
  if (!user || !ok) {
    await recordFailure(em, account, ctx.ip);
    throw new Unauthenticated("Wrong email or password.");
  }
  await clearAccount(em, account);
  const expiresAt = await startSession(em, ctx, user.id);
  return sessionInfo(em, { id: user.id, name: user.name, email: user.email }, "session", expiresAt);
}

/**
 * Starts a new session for `userId` and sets its cookie, deleting the session the request's cookie
 * named, if any (session fixation). A single sign-on session passes `ssoWorkspace`: it reaches only that
 * workspace (openapi.yaml, "Single sign-on"). Returns when the session expires.
 */
export async function startSession(
  em: EntityManager,
  ctx: Context,
  userId: string,
  scope: { ssoWorkspace?: string } = {},
): Promise<Date> {
  const previous = sessionHashOf(ctx);
  if (previous) await em.nativeDelete(Session, { tokenHash: previous });
  const token = newSessionToken();
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000);
  em.create(Session, {
    user: userId,
    tokenHash: hashToken(token),
    userAgent: ctx.get("user-agent").slice(0, USER_AGENT_MAX) || null,
    expiresAt,
    ...(scope.ssoWorkspace ? { activeWorkspace: scope.ssoWorkspace, ssoWorkspace: scope.ssoWorkspace } : {}),
  });
  await em.flush();
  setSessionCookie(ctx, token, expiresAt);
  return expiresAt;
}

/** The longest `User-Agent` kept with a session (openapi.yaml, `BrowserSession`). */
const USER_AGENT_MAX = 300;

/** Ends the session of the request's cookie; a key has none, and nothing is ended. */
export async function signOut(em: EntityManager, ctx: Context, caller: Caller): Promise<void> {
  if (caller.via !== "session") return;
  await em.nativeDelete(Session, { id: caller.keyId });
  clearSessionCookie(ctx);
}

/** Ends every session of the caller's person; their API keys stay. */
export async function signOutEverywhere(em: EntityManager, ctx: Context, caller: Caller): Promise<number> {
  const ended = await em.nativeDelete(Session, { user: caller.userId });
  if (caller.via === "session") clearSessionCookie(ctx);
  return ended;
}

/** Who calls, for `GET /auth/session`. */
export async function currentSession(em: EntityManager, caller: Caller) {
  const expiresAt =
    caller.via === "session"
      ? ((await em.findOne(Session, caller.keyId, { fields: ["expiresAt"] }))?.expiresAt ?? null)
      : null;
  // The workspaces the caller reaches: a workspace key's, or a single sign-on session's, is one.
  return {
    user: { id: caller.userId, name: caller.name, email: caller.email },
    via: caller.via,
    expiresAt: expiresAt ? expiresAt.toISOString() : null,
    workspaces: caller.workspaces.map(({ id, name, slug, role }) => ({ id, name, slug, role })),
  };
}

/** `GET /auth/sessions`: the caller's person's live sessions, the request's own marked. */
export function mySessions(em: EntityManager, caller: Caller) {
  return listSessions(em, caller.userId, caller.via === "session" ? caller.keyId : null);
}

/**
 * `DELETE /auth/sessions/{id}`: ends one of the caller's person's sessions; another person's, an ended
 * one or an unknown id is 404, and nothing changes. Ending the request's own clears its cookie.
 */
export async function endSession(em: EntityManager, ctx: Context, caller: Caller, id: string): Promise<void> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ? id : null;
  // Looked up first: a delete of no row would still bump `auth_epoch` (a statement trigger).
  const mine = uuid && (await em.findOne(Session, { id: uuid, user: caller.userId }, { fields: ["id"] }));
  if (!mine) throw new NotFound(`No session ${id} of yours.`);
  await em.nativeDelete(Session, { id: mine.id });
  if (caller.via === "session" && caller.keyId === uuid) clearSessionCookie(ctx);
}

/**
 * `POST /auth/password`: the new password, given the current one. A wrong current password counts as a
 * failed sign-in of the account and the address (`sign-in-throttle.query.ts`), so the form is no faster a
 * way to guess than sign-in; throttled, it is 429 before any check. As on GitHub, the request's own session
 * stays and every other session of the person ends; keys and apps authorised stay.
 */
export async function changePassword(
  em: EntityManager,
  ctx: Context,
  caller: Caller,
  currentPassword: string,
  newPassword: string,
): Promise<number> {
  checkPassword(newPassword, "newPassword");
  const account = caller.email.trim().toLowerCase();
  await refuseWhileThrottled(em, account, ctx.ip);
  const user = await em.findOne(User, caller.userId, { fields: ["id", "passwordHash"] });
  if (!(await verifyPassword(user?.passwordHash, currentPassword))) {
    await recordFailure(em, account, ctx.ip);
    throw new HttpProblem(
      403,
      "wrong_password",
      "Wrong password",
      user?.passwordHash
        ? "The current password is not right."
        : "You have no password yet: ask an admin for a link to set one.",
    );
  }
  const passwordHash = await hashPassword(newPassword);
  const keep = caller.via === "session" ? caller.keyId : null;
  return em.transactional(async (tem) => {
    await tem.nativeUpdate(User, caller.userId, { passwordHash });
    await clearAccount(tem, account);
    return tem.nativeDelete(Session, { user: caller.userId, ...(keep ? { id: { $ne: keep } } : {}) });
  });
}
