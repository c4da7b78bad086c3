import type { MikroORM } from "@mikro-orm/postgresql";
import type { Context, Middleware } from "koa";
import { type Caller, refuseExpired } from "../http/auth.js";
import { credentialOf, readCredential } from "../http/authenticate.js";
import { Forbidden, HttpProblem, Invalid, Unauthenticated } from "../http/problem.js";
import { ACCESS_LEVELS } from "../rules/permissions.js";
import { accountOf, apiResource, OAUTH_PREFIX, OAUTH_SCOPES, type OAuthScope } from "./provider.js";
import type { OAuthServer } from "./server.js";

/**
 * The consent screen's endpoints, under the interaction's own path (where the provider's interaction
 * cookie is sent): `GET /oauth/interaction/:uid` sends the browser to the web board's consent page
 * (`/consent/:uid`), which reads `GET …/details` (the client, the scopes, the resource) and answers with
 * `POST …/confirm` (the workspace chosen) or `POST …/deny`; each answer is the URL to go on to.
 */

/**
 * Who the person at the browser is: as for any call of the board's, the session cookie they signed in
 * with (a password or single sign-on; a write, so with `X-Requested-With`: `http/session.ts`), or the API
 * key they entered on the page (or the board remembers) as a bearer.
 */
export async function personOf(ctx: Context, orm: MikroORM): Promise<Caller> {
  const credential = credentialOf(ctx);
  // An app's own token never approves an app: a key or the person's session does.
  if (credential.kind === "oauth") throw new Unauthenticated("The API key is not valid.");
  const { caller } = await readCredential(orm.em.fork(), credential, new Set());
  refuseExpired(caller);
  return caller;
}

interface Details {
  client: { id: string; name: string | null; uri: string | null };
  scopes: OAuthScope[];
  resource: string;
}

export function consentRoutes(oauth: OAuthServer, orm: MikroORM): Middleware {
  return async (ctx, next) => {
    const match = new RegExp(`^${OAUTH_PREFIX}/interaction/([\\w-]+)(?:/(details|confirm|deny))?$`).exec(
      ctx.path,
    );
    if (!match) return next();
    const provider = oauth.provider;
    if (!provider)
      throw new HttpProblem(503, "service_unavailable", "Starting", "The OAuth server is starting.");
    ctx.state.route = `${OAUTH_PREFIX}/interaction/:uid${match[2] ? `/${match[2]}` : ""}`;
    const uid = match[1]!;
    const action = match[2];
    const interaction = await provider.interactionDetails(ctx.req, ctx.res).catch(() => {
      throw new HttpProblem(
        400,
        "invalid_request",
        "No such authorization",
        "This authorization request is unknown or has expired; start again from the app.",
      );
    });
    if (interaction.uid !== uid) throw new Invalid("This page belongs to another authorization request.");
    const params = interaction.params as { client_id: string; scope?: string; resource?: string | string[] };
    const requested = requestedScopes(params.scope);
    const resource =
      (Array.isArray(params.resource) ? params.resource[0] : params.resource) ?? apiResource(oauth.issuer);

    if (!action && ctx.method === "GET") return ctx.redirect(`/consent/${encodeURIComponent(uid)}`);
    if (action === "details" && ctx.method === "GET") {
      const client = await provider.Client.find(params.client_id);
      const details: Details = {
        client: {
          id: params.client_id,
          name: (client?.clientName as string | undefined) ?? null,
          uri: (client?.clientUri as string | undefined) ?? null,
        },
        scopes: requested,
        resource,
      };
      ctx.body = details;
      return;
    }
    if (ctx.method !== "POST" || !action || action === "details") return next();
    if (action === "deny") {
      const redirectTo = await provider.interactionResult(ctx.req, ctx.res, {
        error: "access_denied",
        error_description: "The person declined the request.",
      });
      ctx.body = { redirectTo };
      return;
    }
    const person = await personOf(ctx, orm);
    const body = (ctx.request.body ?? {}) as { workspace?: unknown };
    const named = typeof body.workspace === "string" ? body.workspace : "";
    const workspace = person.workspaces.find((w) => w.id === named || w.slug === named);
    if (!workspace)
      throw new Forbidden(
        "workspace_forbidden",
        `You are not a member of a workspace "${named}" that you reach as you signed in.`,
      );
    // The page cannot grant more than the person, as they signed in here, may do.
    const widest = requested.reduce((a, s) => Math.max(a, ACCESS_LEVELS.indexOf(s)), 0);
    if (widest > ACCESS_LEVELS.indexOf(person.access))
      throw new Forbidden(
        "insufficient_access",
        `The app asks for ${ACCESS_LEVELS[widest]} access; as you signed in, you have ${person.access} access.`,
      );
    const accountId = accountOf(person.userId, workspace.id);
    const grant = new provider.Grant({ accountId, clientId: params.client_id });
    // The scopes are listed in the metadata (`scopes_supported`) and so are the provider's own as well as
    // the resource's: granted as both.
    grant.addOIDCScope(requested.join(" "));
    grant.addResourceScope(resource, requested.join(" "));
    const grantId = await grant.save();
    const redirectTo = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    ctx.body = { redirectTo };
  };
}

/** The tracker's scopes the app asked for, in level order; none asked: `read`. */
function requestedScopes(scope: string | undefined): OAuthScope[] {
  const asked = new Set((scope ?? "").split(" "));
  const known = OAUTH_SCOPES.filter((s) => asked.has(s));
  return known.length ? known : ["read"];
}
