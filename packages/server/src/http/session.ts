import { randomBytes } from "node:crypto";
import type { Context } from "koa";
import { hashToken } from "./auth.js";
import { HttpProblem } from "./problem.js";

/**
 * The browser's session cookie (openapi.yaml, "Sessions"): a random token, stored only as its SHA-256
 * (`sessions.token_hash`), sent back by the browser on same-origin requests. `HttpOnly` keeps it from
 * page scripts, `SameSite=Lax` from other sites' subrequests and form posts, `Secure` when the request came
 * over https (directly, or as a trusted balancer's `X-Forwarded-Proto` says: `client-address.ts`).
 */

export const SESSION_COOKIE = "tracker_session";
export const SESSION_PREFIX = "trs_";
/** How long a session lasts from sign-in; signing in again starts a new one. */
export const SESSION_DAYS = 30;
/** The header a write made with the cookie must carry (the CSRF defence, below). */
export const CSRF_HEADER = "X-Requested-With";

export function newSessionToken(): string {
  return SESSION_PREFIX + randomBytes(32).toString("base64url");
}

/** The hash of the session cookie's token, when the request carries one of ours. */
export function sessionHashOf(ctx: Context): string | undefined {
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (!token?.startsWith(SESSION_PREFIX)) return undefined;
  return hashToken(token);
}

export function setSessionCookie(ctx: Context, token: string, expiresAt: Date): void {
  ctx.cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: ctx.secure,
    path: "/",
    expires: expiresAt,
    overwrite: true,
  });
}

export function clearSessionCookie(ctx: Context): void {
  ctx.cookies.set(SESSION_COOKIE, "", {
    httpOnly: true,
    sameSite: "lax",
    secure: ctx.secure,
    path: "/",
    expires: new Date(0),
    overwrite: true,
  });
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence for requests authenticated by the cookie (a browser sends cookies whoever made the page):
 * a write must carry `X-Requested-With` (a page of another origin cannot add a custom header without a
 * CORS preflight, and the server's CORS allows neither that header nor credentials), and an `Origin`, when
 * the browser sends one, must be the server's own. Refused with 403 `csrf_failed`, before anything runs.
 */
export function checkCsrf(ctx: Context): void {
  if (SAFE_METHODS.has(ctx.method)) return;
  if (!ctx.get(CSRF_HEADER)) {
    throw new CsrfFailed(`A write signed in with the session cookie needs the ${CSRF_HEADER} header.`);
  }
  const origin = ctx.get("Origin");
  // Koa's own `ctx.origin` echoes the request's Origin header: the server's origin is built here.
  if (origin && origin !== `${ctx.protocol}://${ctx.host}`) {
    throw new CsrfFailed("A write signed in with the session cookie must come from the server's own origin.");
  }
}

export class CsrfFailed extends HttpProblem {
  constructor(detail: string) {
    super(403, "csrf_failed", "Cross-site request refused", detail);
  }
}
