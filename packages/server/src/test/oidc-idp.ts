import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/**
 * A real OpenID provider for the single sign-on tests (`oidc-provider`, the certified library the server's
 * own OAuth side runs on), on a free port of this machine. Its development sign-in pages take any login
 * name: the account `<login>` has the claims `accounts[<login>]` gives (unknown logins have none), so a test
 * signs in as whom it likes, with or without a verified e-mail.
 */
export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export interface IdpAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export async function startTestIdp(opts: {
  redirectUris: string[];
  accounts: Record<string, IdpAccount>;
}): Promise<TestIdp> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "tracker";
  const clientSecret = "a-test-client-secret-of-some-length";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["a-test-cookie-key"] },
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        async claims() {
          return { sub, ...(opts.accounts[sub] ?? {}) };
        },
      };
    },
  });
  server.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Signs in on the provider's development pages and consents, as a person would, from the provider's
 * `/auth` URL (the server's redirect), with `visit` keeping the browser's cookies; answers the URL the
 * provider sends the browser back to (the server's callback).
 */
export async function signInAtIdp(
  visit: (url: string, init?: RequestInit) => Promise<Response>,
  authorizeUrl: string,
  login: string,
): Promise<string> {
  let res = await visit(authorizeUrl);
  for (let step = 0; step < 8; step++) {
    const location = res.headers.get("location");
    if (!location) throw new Error(`the provider stopped at ${res.url}: ${res.status} ${await res.text()}`);
    const target = new URL(location, res.url);
    if (!target.pathname.startsWith("/interaction/")) {
      if (target.origin !== new URL(authorizeUrl).origin) return target.href;
      res = await visit(target.href);
      continue;
    }
    const page = await (await visit(target.href)).text();
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    const fields: Record<string, string> =
      prompt === "login" ? { prompt, login, password: "any" } : { prompt: prompt ?? "consent" };
    res = await visit(target.href, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }
  throw new Error("the provider's sign-in took too many steps");
}
