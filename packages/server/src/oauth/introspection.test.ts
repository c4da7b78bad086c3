import { createHash, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { cookieBrowser, formPost } from "../test/browser-visit.js";
import { useTestServer } from "../test/harness.js";

/**
 * Token introspection (RFC 7662, `oauth/provider.ts`): a token's own client learns of it, and so does a
 * resource server the operator listed (`TRACKER_OAUTH_RESOURCES`, authenticated with
 * `TRACKER_OAUTH_INTROSPECTION_SECRET`) of the access tokens issued for it; any other client, a
 * self-registered confidential one included, reads `{"active": false}`.
 */

const TOOLS = "http://127.0.0.1:9/mcp";
const OTHER_TOOLS = "http://127.0.0.1:10/mcp";
const SECRET = randomBytes(32).toString("base64url");
const REDIRECT = "http://127.0.0.1:9/callback";
vi.stubEnv("TRACKER_OAUTH_INTROSPECTION_SECRET", SECRET);

const srv = useTestServer({ oauthResources: [TOOLS, OTHER_TOOLS] });
let adminKey = "";
let slug = "";

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

async function register(
  body: Record<string, unknown>,
): Promise<{ client_id: string; client_secret?: string }> {
  const res = await fetch(`${srv.url}/oauth/reg`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { client_id: string; client_secret?: string };
}

/** An app's access token for `resource` (the API when none), approved on the consent endpoints with the admin's key. */
async function accessToken(clientId: string, resource?: string): Promise<string> {
  const verifier = randomBytes(32).toString("base64url");
  const jar = cookieBrowser(srv.url);
  const url = new URL(`${srv.url}/oauth/auth`);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    redirect_uri: REDIRECT,
    scope: "read",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    ...(resource ? { resource } : {}),
  }).toString();
  const interaction = (await jar(url.href)).headers.get("location")!;
  const confirm = await jar(`${interaction}/confirm`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${adminKey}` },
    body: JSON.stringify({ workspace: slug }),
  });
  const { redirectTo } = (await confirm.json()) as { redirectTo: string };
  const code = new URL((await jar(redirectTo)).headers.get("location")!).searchParams.get("code")!;
  const res = await fetch(
    `${srv.url}/oauth/token`,
    formPost({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
      ...(resource ? { resource } : {}),
    }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** What introspection answers `as` (client credentials, or a public client's id) about `token`. */
async function introspect(
  token: string,
  as: { basic: string } | { clientId: string },
): Promise<Record<string, unknown>> {
  const res = await fetch(`${srv.url}/oauth/token/introspection`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...("basic" in as ? { authorization: as.basic } : {}),
    },
    body: new URLSearchParams({ token, ...("clientId" in as ? { client_id: as.clientId } : {}) }).toString(),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

let app = "";
beforeAll(async () => {
  const boot = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  adminKey = boot.apiKey.token;
  slug = boot.workspace.slug;
  app = (
    await register({
      client_name: "Agent",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    })
  ).client_id;
});

describe("token introspection", () => {
  it("answers the listed resource server about a token issued for it, and its own client", async () => {
    const token = await accessToken(app, TOOLS);
    const answer = await introspect(token, { basic: basic(TOOLS, SECRET) });
    expect(answer).toMatchObject({ active: true, aud: TOOLS, scope: "read", client_id: app });
    expect(answer.sub).toMatch(/^[\w-]+:[\w-]+$/);
    expect(await introspect(token, { clientId: app })).toMatchObject({ active: true, client_id: app });
  });

  it("tells a self-registered confidential client nothing about another client's token", async () => {
    const token = await accessToken(app, TOOLS);
    const stranger = await register({
      client_name: "Curious",
      grant_types: [],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: "client_secret_basic",
    });
    const answer = await introspect(token, { basic: basic(stranger.client_id, stranger.client_secret!) });
    expect(answer).toEqual({ active: false });
    // Nor one named like the tool server: registration chooses its own client ids.
    const named = await register({
      client_id: TOOLS,
      grant_types: [],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: "client_secret_basic",
    });
    expect(named.client_id).not.toBe(TOOLS);
    expect(await introspect(token, { basic: basic(named.client_id, named.client_secret!) })).toEqual({
      active: false,
    });
  });

  it("tells a resource server nothing of tokens issued for the API or for another resource", async () => {
    const forApi = await accessToken(app);
    expect(await introspect(forApi, { basic: basic(TOOLS, SECRET) })).toEqual({ active: false });
    const forOther = await accessToken(app, OTHER_TOOLS);
    expect(await introspect(forOther, { basic: basic(TOOLS, SECRET) })).toEqual({ active: false });
    expect(await introspect(forOther, { basic: basic(OTHER_TOOLS, SECRET) })).toMatchObject({ active: true });
  });

  it("refuses the resource server's id with a wrong secret", async () => {
    const res = await fetch(`${srv.url}/oauth/token/introspection`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: basic(TOOLS, "wrong"),
      },
      body: new URLSearchParams({ token: "x" }).toString(),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_client");
  });
});
