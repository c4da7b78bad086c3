import type { MikroORM } from "@mikro-orm/postgresql";
import type Provider from "oidc-provider";
import { apiResource, createProvider, introspectionSecret } from "./provider.js";

/**
 * The OAuth server of this instance: made once the server knows the address it answers at (its issuer,
 * `TRACKER_PUBLIC_URL`, or the port it was given), until then its endpoints answer 503.
 */
export class OAuthServer {
  provider: Provider | undefined;
  issuer = "";
  private allowed: ReadonlySet<string> = new Set();

  constructor(
    private readonly orm: MikroORM,
    /** Resources besides the API that tokens may be issued for (`TRACKER_OAUTH_RESOURCES`). */
    readonly resources: string[],
  ) {}

  async start(issuer: string): Promise<void> {
    this.issuer = issuer.replace(/\/$/, "");
    this.provider = await createProvider(this.orm, {
      issuer: this.issuer,
      resources: this.resources,
      introspectionSecret: introspectionSecret(),
    });
    this.allowed = new Set([apiResource(this.issuer), ...this.resources]);
  }

  /** The audiences the API accepts in an access token. */
  audiences(): ReadonlySet<string> {
    return this.allowed;
  }
}
