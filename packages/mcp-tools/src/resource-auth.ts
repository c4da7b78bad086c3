/**
 * The tool server as an OAuth protected resource (MCP authorization, 2025-06-18): its metadata (RFC 9728)
 * names the tracker's authorization server, and a bearer token that is not an API key is checked by
 * introspection (RFC 7662) at that server: active, and issued for this resource (its audience, RFC 8707).
 * The tracker's API accepts such tokens too, since a deployment lists the tool server among its
 * resources (`TRACKER_OAUTH_RESOURCES`): the tool server acts with the person's token, within its scope.
 */

export interface ResourceAuthOptions {
  /** This endpoint's public URL, the resource tokens must be issued for: `https://mcp.example.com/mcp`. */
  resource: string;
  /** The tracker's issuer (its public URL). */
  authorizationServer: string;
  /**
   * The tracker's `TRACKER_OAUTH_INTROSPECTION_SECRET`: with it, and `resource` as its client id, this
   * endpoint introspects the tokens issued for it (the tracker lists it in `TRACKER_OAUTH_RESOURCES`).
   */
  introspectionSecret?: string | undefined;
}

export interface TokenInfo {
  /** Who and which grant: what a session is bound to, the token itself being refreshed over time. */
  subject: string;
  scope: string;
  exp: number;
}

/** Where a resource's metadata lives (RFC 9728, section 3.1): the well-known prefix before its path. */
export function metadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname;
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}

/**
 * RFC 9728 metadata. `scopes_supported` is left out on purpose: MCP clients ask for every scope listed
 * there, so an agent would be granted `admin` by default; without it, a client asks for the scope it is
 * configured with, and one asking none gets `read` (the scopes are in the authorization server's metadata).
 */
export function protectedResourceMetadata(options: ResourceAuthOptions) {
  return {
    resource: options.resource,
    authorization_servers: [options.authorizationServer],
    bearer_methods_supported: ["header"],
    resource_name: "Tracker tools",
  };
}

/** `WWW-Authenticate` of a 401: where the metadata is, and why the token failed when one was sent. */
export function challenge(
  options: ResourceAuthOptions,
  error?: { code: string; description: string },
): string {
  const parts = [`resource_metadata="${metadataUrl(options.resource)}"`];
  if (error)
    parts.push(`error="${error.code}"`, `error_description="${error.description.replace(/"/g, "'")}"`);
  return `Bearer ${parts.join(", ")}`;
}

interface Registered {
  clientId: string;
  clientSecret: string;
  introspectionEndpoint: string;
}

/**
 * Checks access tokens by introspection at the authorization server, as the resource server the tracker's
 * operator listed: client id this endpoint's resource URL, secret the tracker's
 * `TRACKER_OAUTH_INTROSPECTION_SECRET` (a client of any other name only learns of its own tokens).
 * Answers are kept until the token's expiry, for at most a minute, so a revoked token stops working
 * within that minute.
 */
export class TokenIntrospector {
  private registered: Promise<Registered> | undefined;
  private readonly cache = new Map<string, { info: TokenInfo | null; until: number }>();

  constructor(private readonly options: ResourceAuthOptions) {}

  private register(): Promise<Registered> {
    this.registered ??= (async () => {
      const secret = this.options.introspectionSecret;
      if (!secret)
        throw new Error(
          "OAuth access tokens are checked with the Tracker server's TRACKER_OAUTH_INTROSPECTION_SECRET: set it here too",
        );
      const base = this.options.authorizationServer.replace(/\/$/, "");
      const meta = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as {
        introspection_endpoint: string;
      };
      return {
        clientId: this.options.resource,
        clientSecret: secret,
        introspectionEndpoint: meta.introspection_endpoint,
      };
    })().catch((err: unknown) => {
      this.registered = undefined;
      throw err;
    });
    return this.registered;
  }

  /** The token's grant and scope when it is active and issued for this resource; null otherwise. */
  async check(token: string): Promise<TokenInfo | null> {
    const now = Date.now();
    const cached = this.cache.get(token);
    if (cached && cached.until > now) return cached.info;
    const client = await this.register();
    const res = await fetch(client.introspectionEndpoint, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString("base64")}`,
      },
      body: new URLSearchParams({ token }).toString(),
    });
    if (!res.ok) throw new Error(`introspection: ${res.status}`);
    const answer = (await res.json()) as {
      active: boolean;
      aud?: string | string[];
      scope?: string;
      exp?: number;
      sub?: string;
      client_id?: string;
    };
    const aud = Array.isArray(answer.aud) ? answer.aud : answer.aud ? [answer.aud] : [];
    const info =
      answer.active && aud.includes(this.options.resource)
        ? { subject: `${answer.sub}|${answer.client_id}`, scope: answer.scope ?? "", exp: answer.exp ?? 0 }
        : null;
    const until = Math.min(now + 60_000, info ? info.exp * 1000 : now + 60_000);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(token, { info, until });
    return info;
  }
}
