import { createHash } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Context, Middleware } from "koa";
import * as oidc from "openid-client";
import { recordChanges } from "../../events/record-change.query.js";
import { NotFound } from "../../http/problem.js";
import type { Logger } from "../../logger.js";
import { startSession } from "../sessions/session.service.js";
import { User } from "../users/user.entity.js";
import { findOrCreateUser } from "../users/user.service.js";
import { Membership, Workspace } from "../workspaces/workspace.entity.js";
import { addMember } from "../workspaces/workspace.service.js";
import { SsoLogin } from "./sso.entity.js";
import { providerOf, reasonOf } from "./sso.service.js";

/**
 * The browser's side of single sign-on (openapi.yaml, "Single sign-on"): `GET /auth/sso/{workspace}` sends
 * the browser to the workspace's provider, `GET /auth/sso/callback` signs the person in when it comes back.
 * Redirects, not JSON: the browser navigates through them. The protocol (PKCE, state, nonce, the ID token's
 * checks) is openid-client's.
 */

const STATE_COOKIE = "tracker_sso";
const CALLBACK = "/auth/sso/callback";
const LOGIN_MS = 10 * 60_000;

type Failure = "sso_failed" | "sso_expired" | "sso_email_unverified" | "sso_not_allowed";

class SignInFailed extends Error {
  constructor(
    readonly code: Failure,
    why: string,
  ) {
    super(why);
  }
}

const stateHash = (state: string) => createHash("sha256").update(state).digest("hex");

/** A path on this server to land on afterwards; anything else (another site, `//host`) is not taken. */
function safeReturnTo(value: unknown, fallback: string): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.includes("\\"))
    return fallback;
  return value.slice(0, 2000);
}

export function ssoSignInRoutes(orm: MikroORM, dataDir: string, logger: Logger): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== "GET" || !ctx.path.startsWith("/auth/sso/")) return next();
    if (ctx.path === CALLBACK) {
      ctx.state.route = CALLBACK;
      return finish(ctx, orm, dataDir, logger);
    }
    const slug = /^\/auth\/sso\/([a-z0-9-]{1,60})$/.exec(ctx.path)?.[1];
    if (!slug) return next();
    ctx.state.route = "/auth/sso/:workspace";
    return start(ctx, orm, dataDir, slug);
  };
}

async function start(ctx: Context, orm: MikroORM, dataDir: string, slug: string): Promise<void> {
  const em = orm.em.fork();
  const workspace = await em.findOne(Workspace, { slug }, { fields: ["id", "slug"] });
  const provider = workspace ? await providerOf(em, workspace.id, dataDir).catch(() => undefined) : null;
  if (provider === null || !workspace)
    throw new NotFound(`No workspace "${slug}" signs in with single sign-on.`);
  if (!provider) return failed(ctx, "sso_failed");
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  // `app.proxy`: behind a balancer, its X-Forwarded-Proto and -Host name the address the browser used.
  const redirectUri = `${ctx.protocol}://${ctx.host}${CALLBACK}`;
  em.create(SsoLogin, {
    stateHash: stateHash(state),
    workspace: workspace.id,
    codeVerifier,
    nonce,
    redirectUri,
    returnTo: safeReturnTo(ctx.query.returnTo, `/${workspace.slug}`),
    expiresAt: new Date(Date.now() + LOGIN_MS),
  });
  await em.flush();
  // The state rides in the browser too: a sign-in started in one browser is never finished in another.
  ctx.cookies.set(STATE_COOKIE, state, {
    httpOnly: true,
    sameSite: "lax",
    secure: ctx.secure,
    path: "/auth/sso",
    maxAge: LOGIN_MS,
    overwrite: true,
  });
  const url = oidc.buildAuthorizationUrl(provider.config, {
    redirect_uri: redirectUri,
    scope: "openid email profile",
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
  });
  ctx.redirect(url.href);
}

async function finish(ctx: Context, orm: MikroORM, dataDir: string, logger: Logger): Promise<void> {
  const state = typeof ctx.query.state === "string" ? ctx.query.state : "";
  const kept = ctx.cookies.get(STATE_COOKIE);
  ctx.cookies.set(STATE_COOKIE, "", { path: "/auth/sso", expires: new Date(0), overwrite: true });
  try {
    if (!state || state !== kept) throw new SignInFailed("sso_expired", "the state is not this browser's");
    const em = orm.em.fork();
    const login = await em.findOne(SsoLogin, { stateHash: stateHash(state) });
    // Used once: of two callbacks with the same state, one deletes the row and goes on.
    const taken = login ? await em.nativeDelete(SsoLogin, { stateHash: login.stateHash }) : 0;
    if (!login || taken !== 1 || login.expiresAt <= new Date())
      throw new SignInFailed("sso_expired", "no sign-in with this state, or it has expired");
    const workspaceId = login.workspace.id;
    const provider = await providerOf(em, workspaceId, dataDir).catch((err: unknown) => {
      throw new SignInFailed("sso_failed", `discovery: ${reasonOf(err)}`);
    });
    if (!provider) throw new SignInFailed("sso_failed", "single sign-on was turned off meanwhile");
    const current = new URL(login.redirectUri);
    current.search = ctx.querystring;
    const tokens = await oidc
      .authorizationCodeGrant(provider.config, current, {
        pkceCodeVerifier: login.codeVerifier,
        expectedState: state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      })
      .catch((err: unknown) => {
        throw new SignInFailed("sso_failed", reasonOf(err));
      });
    const idToken = tokens.claims();
    if (!idToken) throw new SignInFailed("sso_failed", "the provider answered no ID token");
    // Many providers put `email` in the ID token only when asked claim by claim; UserInfo always has it.
    const claims =
      typeof idToken.email === "string"
        ? idToken
        : await oidc
            .fetchUserInfo(provider.config, tokens.access_token, idToken.sub)
            .catch((err: unknown) => {
              throw new SignInFailed("sso_failed", `userinfo: ${reasonOf(err)}`);
            });
    const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
    if (!email || claims.email_verified !== true)
      throw new SignInFailed("sso_email_unverified", "the provider vouched for no verified e-mail");
    const name = typeof claims.name === "string" && claims.name.trim() ? claims.name : email.split("@")[0];
    const userId = await em.transactional(async (tem) => {
      const user = await findOrCreateUser(tem, email, undefined);
      const member = user ? await tem.count(Membership, { workspace: workspaceId, user: user.id }) : 0;
      if (member > 0) return user!.id;
      if (!provider.allowedDomains.includes(email.slice(email.lastIndexOf("@") + 1)))
        throw new SignInFailed("sso_not_allowed", `${email} is no member and its domain is not allowed`);
      const joining = user ?? (await findOrCreateUser(tem, email, name));
      // A placeholder an import held for this email becomes the person, as an accepted invite claims it.
      await tem.nativeUpdate(User, { id: joining!.id, placeholder: true }, { placeholder: false, name });
      await addMember(tem, workspaceId, joining!.id, "member");
      // The new member joins the member list, as an accepted invite's does.
      await recordChanges(tem, workspaceId, [{ entity: "member", action: "created", id: joining!.id }]);
      return joining!.id;
    });
    await startSession(em, ctx, userId, { ssoWorkspace: workspaceId });
    ctx.redirect(login.returnTo);
  } catch (err) {
    if (!(err instanceof SignInFailed)) throw err;
    logger.info("single sign-on refused", { code: err.code, why: err.message });
    failed(ctx, err.code);
  }
}

function failed(ctx: Context, code: Failure): void {
  ctx.redirect(`/?sso_error=${code}`);
}
