import { createServer } from "node:net";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { cookieBrowser, startTestServer, type TestServer } from "@tracker/server/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningHttpServer, startHttpServer } from "./http.js";
import { TOOLSET_NAMES } from "./toolsets.js";

/**
 * MCP authorization (2025-06-18) end to end: the MCP SDK's own client-side OAuth (`authProvider`)
 * against `tracker-mcp --http` and a real Tracker server, from the 401 through protected resource
 * metadata, authorization server metadata, dynamic registration, the consent endpoints (driven as the
 * board's page drives them, the person identified by their API key), the code for a token bound to the
 * tool server's resource, to tool calls; and a read-scoped token refused by a write tool.
 */

let server: TestServer;
let mcp: RunningHttpServer;
let resource: string;
let adminKey: string;
let slug: string;
const REDIRECT = "http://127.0.0.1:8976/callback";
const INTROSPECTION_SECRET = "a secret the tracker and its tool server share";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** An agent's OAuth state, kept in memory; the authorization URL is handed to the "browser" below. */
class AgentAuth implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  constructor(private readonly scope: string) {}
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: `Agent (${this.scope})`,
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: this.scope,
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The browser: follows the authorization URL to the consent endpoints, approves with `key`, returns the code. */
async function approve(authorizationUrl: URL, key: string): Promise<string> {
  const go = cookieBrowser(server.url);
  const interaction = (await go(authorizationUrl.href)).headers.get("location")!;
  const details = (await (await go(`${interaction}/details`)).json()) as {
    resource: string;
    scopes: string[];
  };
  expect(details.resource).toBe(resource);
  const confirm = await go(`${interaction}/confirm`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ workspace: slug }),
  });
  const { redirectTo } = (await confirm.json()) as { redirectTo: string };
  const back = new URL((await go(redirectTo)).headers.get("location")!);
  return back.searchParams.get("code")!;
}

/** Connects as the MCP SDK does with OAuth: the first attempt is refused, the person approves, then it works. */
async function connectWithOAuth(scope: string, auth = new AgentAuth(scope)): Promise<Client> {
  const first = new StreamableHTTPClientTransport(new URL(resource), { authProvider: auth });
  await expect(new Client({ name: "agent", version: "1" }).connect(first)).rejects.toThrow(/Unauthorized/i);
  expect(auth.authorizationUrl?.origin).toBe(server.url);
  expect(auth.authorizationUrl?.searchParams.get("resource")).toBe(resource);
  await first.finishAuth(await approve(auth.authorizationUrl!, adminKey));
  expect(auth.saved?.scope).toBe(scope);
  const client = new Client({ name: "agent", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider: auth }));
  return client;
}

beforeAll(async () => {
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  // The tool server is the resource the operator lists, and introspects with the secret they share.
  vi.stubEnv("TRACKER_OAUTH_INTROSPECTION_SECRET", INTROSPECTION_SECRET);
  server = await startTestServer({ oauthResources: [resource] });
  const boot = await server.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  adminKey = boot.apiKey.token;
  slug = boot.workspace.slug;
  mcp = await startHttpServer({
    port,
    host: "127.0.0.1",
    allowedOrigins: [],
    trackerUrl: server.url,
    timeoutMs: 10_000,
    toolsets: TOOLSET_NAMES,
    introspectionSecret: INTROSPECTION_SECRET,
  });
});
afterAll(async () => {
  await mcp?.close();
  await server?.close();
  vi.unstubAllEnvs();
});

describe("MCP authorization on the HTTP endpoint", () => {
  it("answers 401 naming its protected resource metadata, which names the tracker's authorization server", async () => {
    const res = await fetch(resource, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    const metadataUrl = `${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp`;
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    const meta = await (await fetch(metadataUrl)).json();
    expect(meta).toMatchObject({ resource, authorization_servers: [server.url] });
    // Not listed, so that clients ask for the scope they need rather than all of them.
    expect(meta).not.toHaveProperty("scopes_supported");
  });

  it("connects with OAuth only, from discovery to tool calls", async () => {
    const client = await connectWithOAuth("write");
    const created = await client.callTool({
      name: "create_issue",
      arguments: { team: "ENG", title: "Filed over OAuth" },
    });
    expect(created.isError).toBeFalsy();
    const found = await client.callTool({ name: "search_issues", arguments: { query: "Filed over OAuth" } });
    expect(JSON.stringify(found.content)).toContain("Filed over OAuth");
    await client.close();
  });

  it("offers a read-scoped token only reading tools, and its writes are refused wherever it goes", async () => {
    const auth = new AgentAuth("read");
    const client = await connectWithOAuth("read", auth);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("search_issues");
    expect(names).not.toContain("create_issue");
    const res = await client
      .callTool({ name: "create_issue", arguments: { team: "ENG", title: "Not by a reader" } })
      .catch((err: Error) => ({ isError: true, content: [{ type: "text", text: err.message }] }));
    expect(res.isError).toBe(true);
    // The same token sent to the API itself: the server refuses the write, whatever client holds it.
    const direct = await fetch(`${server.url}/api/v1/issues`, {
      method: "POST",
      headers: { authorization: `Bearer ${auth.saved!.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ team: "ENG", title: "Not by a reader" }),
    });
    expect(direct.status).toBe(403);
    expect(((await direct.json()) as { code: string }).code).toBe("insufficient_access");
    const found = await client.callTool({ name: "search_issues", arguments: { query: "Not by a reader" } });
    expect(JSON.stringify(found.content)).not.toContain("Not by a reader");
    await client.close();
  });

  it("refuses a token issued for another resource (the API's), naming invalid_token", async () => {
    const auth = new AgentAuth("read");
    // The same dance, but the token asked for the API itself rather than for this endpoint.
    const meta = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as {
      registration_endpoint: string;
      token_endpoint: string;
    };
    const reg = (await (
      await fetch(meta.registration_endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(auth.clientMetadata),
      })
    ).json()) as { client_id: string };
    const { createHash, randomBytes } = await import("node:crypto");
    const verifier = randomBytes(32).toString("base64url");
    const url = new URL(`${server.url}/oauth/auth`);
    url.search = new URLSearchParams({
      client_id: reg.client_id,
      response_type: "code",
      redirect_uri: REDIRECT,
      scope: "read",
      resource: `${server.url}/api/v1`,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    }).toString();
    const saved = resource;
    resource = `${server.url}/api/v1`;
    const code = await approve(url, adminKey).finally(() => {
      resource = saved;
    });
    const tokens = (await (
      await fetch(meta.token_endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: REDIRECT,
          client_id: reg.client_id,
          code_verifier: verifier,
        }).toString(),
      })
    ).json()) as { access_token: string };
    // Good at the API…
    const api = await fetch(`${server.url}/api/v1/issues`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(api.status).toBe(200);
    // …and refused here: it was not issued for this resource.
    const res = await fetch(resource, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${tokens.access_token}`,
      },
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });
});
