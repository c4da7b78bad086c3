import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import Provider, { type Configuration, errors } from "oidc-provider";
import { pgAdapter } from "./adapter.js";
import { prefersPage, successSource, userCodeConfirmSource, userCodeInputSource } from "./device-pages.js";
import { sharedSecret } from "./store.query.js";

/**
 * The OAuth 2.1 authorization server for the API (the contract's "OAuth"), built on `oidc-provider`, a
 * certified implementation, so no protocol step is written here: authorization code with PKCE (required
 * for every client, `S256` only), refresh tokens rotated on each use (a used one presented again revokes
 * its whole grant), revocation (RFC 7009), dynamic client registration (RFC 7591), metadata (RFC 8414),
 * resource indicators (RFC 8707), introspection (RFC 7662) and the device authorization grant (RFC 8628).
 *
 * What is the tracker's own:
 * - Scopes `read`, `write`, `admin` are the access levels of `rules/permissions.ts`; a token's level is
 *   its widest scope (`accessOfScope`).
 * - A grant is bound to one workspace, chosen on the consent screen: the account id the grant is made
 *   for is `<userId>:<workspaceId>` (`accountOf`), so every code and token carries it.
 * - Access tokens are opaque, stored (`oauth/adapter.ts`), and looked up by the API's `authenticate` step
 *   (`http/auth.query.ts`, `authenticateAccessToken`): revocation takes effect at once, on every instance.
 *   Their audience is a resource: the API (`<issuer>/api/v1`, the default) or one of the configured tool
 *   servers (`TRACKER_OAUTH_RESOURCES`); the API accepts only those.
 */

export const OAUTH_SCOPES = ["read", "write", "admin"] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** Where the provider's own endpoints live under the server: `/oauth/auth`, `/oauth/token`, ... */
export const OAUTH_PREFIX = "/oauth";

export const TTL = {
  AccessToken: 3600,
  AuthorizationCode: 60,
  DeviceCode: 600,
  Grant: 30 * 86_400,
  Interaction: 3600,
  RefreshToken: 30 * 86_400,
  Session: 86_400,
} as const;

/** The account a grant is made for: the person in the workspace they chose. */
export function accountOf(userId: string, workspaceId: string): string {
  return `${userId}:${workspaceId}`;
}

export function parseAccount(accountId: string): { userId: string; workspaceId: string } | undefined {
  const [userId, workspaceId, ...rest] = accountId.split(":");
  return userId && workspaceId && !rest.length ? { userId, workspaceId } : undefined;
}

/** The API resource: the default audience of tokens. */
export const apiResource = (issuer: string) => `${issuer.replace(/\/$/, "")}/api/v1`;

export interface OAuthOptions {
  issuer: string;
  /** Resources besides the API that tokens may be issued for (tool servers). */
  resources: string[];
  /**
   * The secret the listed resources authenticate to introspection with (`introspectionSecret`): each is
   * then a client of its own, its id the resource's URL. Unset: a token is introspected by its own client
   * only.
   */
  introspectionSecret?: string | undefined;
}

/**
 * `TRACKER_OAUTH_INTROSPECTION_SECRET` (README, "Configuration"): shared with the tool servers listed in
 * `TRACKER_OAUTH_RESOURCES`, which introspect the tokens issued for them with it (client id: their own
 * resource URL; `client_secret_basic`). At least 32 characters.
 */
export function introspectionSecret(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const secret = env.TRACKER_OAUTH_INTROSPECTION_SECRET?.trim() || undefined;
  if (secret && secret.length < 32)
    throw new Error("TRACKER_OAUTH_INTROSPECTION_SECRET must be at least 32 characters");
  return secret;
}

/** The audiences of an access token (RFC 8707's resources it was issued for); none for other tokens. */
function audiencesOf(token: { kind: string; aud?: unknown }): string[] {
  if (token.kind !== "AccessToken") return [];
  return Array.isArray(token.aud)
    ? (token.aud as string[])
    : typeof token.aud === "string"
      ? [token.aud]
      : [];
}

export async function createProvider(orm: MikroORM, options: OAuthOptions): Promise<Provider> {
  const em = orm.em.fork();
  // Shared by every instance: cookies signed by one are read by another.
  const cookies = (await sharedSecret(em, "cookie-keys", {
    keys: [randomBytes(32).toString("base64url")],
  })) as {
    keys: string[];
  };
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const signing = (await sharedSecret(em, "signing-key", {
    ...privateKey.export({ format: "jwk" }),
    alg: "ES256",
    use: "sig",
  })) as Record<string, string>;
  const api = apiResource(options.issuer);
  const audiences = new Set([api, ...options.resources]);
  // The listed resource servers, as clients the operator configured: they only introspect.
  const resourceServers = new Set(options.introspectionSecret ? options.resources : []);

  const configuration: Configuration = {
    adapter: pgAdapter(orm),
    clients: [...resourceServers].map((resource) => ({
      client_id: resource,
      client_secret: options.introspectionSecret!,
      client_name: `Tracker tools at ${resource}`,
      grant_types: [],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: "client_secret_basic",
    })),
    jwks: { keys: [signing] },
    cookies: { keys: cookies.keys },
    scopes: [...OAUTH_SCOPES],
    claims: { openid: ["sub"] },
    responseTypes: ["code"],
    pkce: { required: () => true },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    interactions: { url: (_ctx, interaction) => `${OAUTH_PREFIX}/interaction/${interaction.uid}` },
    // Every client allowed the refresh_token grant gets one; `offline_access` is not asked for.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    // An error not redirected to the client (never to an unverified redirect URI): plain text for a
    // browser that asks for a page, the OAuth error body (RFC 6749 section 5.2) for anything else.
    renderError: async (ctx, out) => {
      if (!prefersPage(ctx)) {
        ctx.body = { error: out.error, error_description: out.error_description };
        return;
      }
      ctx.type = "text/plain; charset=utf-8";
      ctx.body = `The authorization request was refused: ${out.error}${out.error_description ? ` (${out.error_description})` : ""}.\n`;
    },
    ttl: { ...TTL },
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      // The one signing key is an EC key: nothing here is signed with RSA.
      id_token_signed_response_alg: "ES256",
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      // A client revokes only its own tokens.
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      // RFC 7662, for resource servers (the tool server) to check a token's audience and scope: a client
      // learns of its own tokens, a resource server the operator listed of the access tokens issued for
      // it; anyone else (a self-registered confidential client too) reads `{"active": false}`.
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) =>
          token.clientId === client.clientId ||
          (resourceServers.has(client.clientId) && audiencesOf(token).includes(client.clientId)),
      },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      deviceFlow: { enabled: true, userCodeInputSource, userCodeConfirmSource, successSource },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => api,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (!audiences.has(resource)) throw new errors.InvalidTarget("unknown resource");
          return {
            audience: resource,
            scope: OAUTH_SCOPES.join(" "),
            accessTokenTTL: TTL.AccessToken,
            accessTokenFormat: "opaque",
          };
        },
      },
    },
  };
  const provider = new Provider(options.issuer, configuration);
  provider.proxy = true;
  return provider;
}
