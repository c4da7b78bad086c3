import { createHash, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { cookieBrowser, formPost } from "../test/browser-visit.js";
import { startAnotherInstance, useTestServer } from "../test/harness.js";
import { pruneExpired } from "./store.query.js";

/**
 * The OAuth authorization server (`oauth/`) against a real server, as an app and a browser would use it:
 * metadata, dynamic registration, the authorization request, the consent endpoints the board's page calls
 * (the person identified by their API key), the code for tokens with PKCE, the API called with them,
 * refresh with rotation, revocation, and what each refuses.
 */

const srv = useTestServer();

interface Metadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  revocation_endpoint: string;
  code_challenge_methods_supported: string[];
  scopes_supported: string[];
}
let meta: Metadata;
let slug: string;
let adminKey: string;
const REDIRECT = "http://127.0.0.1:9/callback";

type Browser = ReturnType<typeof cookieBrowser>;

async function register(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(meta.registration_endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Test App",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...extra,
    }),
  });
  const body = (await res.json()) as { client_id: string };
  expect({ status: res.status, body }).toEqual({
    status: 201,
    body: expect.objectContaining({ client_id: expect.any(String) }),
  });
  return body.client_id;
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

interface Tokens {
  access_token: string;
  refresh_token: string;
  scope: string;
  token_type: string;
}

/** The authorization request up to the consent page: the interaction's path, and the browser's jar. */
async function authorize(
  clientId: string,
  params: Record<string, string>,
): Promise<{ jar: Browser; res: Response }> {
  const jar = cookieBrowser(srv.url);
  const url = new URL(meta.authorization_endpoint);
  for (const [k, v] of Object.entries({
    client_id: clientId,
    response_type: "code",
    redirect_uri: REDIRECT,
    state: "s1",
    ...params,
  }))
    url.searchParams.set(k, v);
  return { jar, res: await jar(url.href) };
}

/** The whole way to a code: authorize, the consent page's calls with `key`, back to the redirect URI. */
async function codeFor(clientId: string, scope: string, challenge: string, key = adminKey, workspace = slug) {
  const { jar, res } = await authorize(clientId, {
    scope,
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  expect(res.status).toBe(303);
  const interaction = res.headers.get("location")!;
  expect(interaction).toMatch(/\/oauth\/interaction\/[\w-]+$/);
  const page = await jar(interaction);
  expect(page.headers.get("location")).toMatch(/^\/consent\/[\w-]+$/);
  const details = await jar(`${interaction}/details`);
  expect(details.status).toBe(200);
  const confirm = await jar(`${interaction}/confirm`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ workspace }),
  });
  if (confirm.status !== 200) return { confirm, details: await details.json() };
  const { redirectTo } = (await confirm.json()) as { redirectTo: string };
  const back = await jar(redirectTo);
  expect(back.status).toBe(303);
  const callback = new URL(back.headers.get("location")!, srv.url);
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
  return { code: callback.searchParams.get("code")!, details: await details.json(), confirm };
}

async function token(
  body: Record<string, string>,
): Promise<{ status: number; json: Record<string, string> }> {
  const res = await fetch(meta.token_endpoint, formPost(body));
  return { status: res.status, json: (await res.json()) as Record<string, string> };
}

async function tokensFor(clientId: string, scope: string, key?: string): Promise<Tokens> {
  const { verifier, challenge } = pkce();
  const { code } = await codeFor(clientId, scope, challenge, key);
  const res = await token({
    grant_type: "authorization_code",
    code: code!,
    redirect_uri: REDIRECT,
    client_id: clientId,
    code_verifier: verifier,
  });
  expect(res.status).toBe(200);
  return res.json as unknown as Tokens;
}

const api = (accessToken: string, path: string, init: RequestInit = {}) =>
  srv.fetch(
    new Request(`${srv.url}/api/v1${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${accessToken}`,
        ...(init.body ? { "content-type": "application/json" } : {}),
      },
    }),
  );

beforeAll(async () => {
  const boot = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  slug = boot.workspace.slug;
  adminKey = boot.apiKey.token;
  const res = await fetch(`${srv.url}/.well-known/oauth-authorization-server`);
  expect(res.status).toBe(200);
  meta = (await res.json()) as Metadata;
});

describe("the OAuth authorization server", () => {
  it("publishes its metadata at the root (RFC 8414): PKCE S256 only, the three scopes, registration", () => {
    expect(meta.issuer).toBe(srv.url);
    expect(meta.authorization_endpoint).toBe(`${srv.url}/oauth/auth`);
    expect(meta.token_endpoint).toBe(`${srv.url}/oauth/token`);
    expect(meta.registration_endpoint).toBe(`${srv.url}/oauth/reg`);
    expect(meta.revocation_endpoint).toBeDefined();
    expect(meta.code_challenge_methods_supported).toEqual(["S256"]);
    expect(meta.scopes_supported).toEqual(expect.arrayContaining(["read", "write", "admin"]));
  });

  it("answers an unknown OAuth path with the server's 404 problem, and the metadata at its other name too", async () => {
    const res = await fetch(`${srv.url}/oauth/nothing-here`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(((await res.json()) as { code: string }).code).toBe("not_found");
    const oidc = (await (await fetch(`${srv.url}/.well-known/openid-configuration`)).json()) as Metadata;
    expect(oidc.token_endpoint).toBe(meta.token_endpoint);
  });

  it("registers a client, asks consent naming it, and issues a token that works within its scope", async () => {
    const clientId = await register();
    const { challenge, verifier } = pkce();
    const { code, details } = await codeFor(clientId, "write", challenge);
    expect(details).toMatchObject({ client: { id: clientId, name: "Test App" }, scopes: ["write"] });
    const res = await token({
      grant_type: "authorization_code",
      code: code!,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ token_type: "Bearer", scope: "write" });
    expect(res.json.refresh_token).toBeTruthy();
    const access = res.json.access_token!;

    const list = await api(access, "/issues");
    expect(list.status).toBe(200);
    // Bound to the workspace chosen on the consent screen, without naming it.
    expect(list.headers.get("x-service-workspace")).toBe(slug);
    const created = await api(access, "/labels", {
      method: "POST",
      body: JSON.stringify({ name: "from-app" }),
    });
    expect(created.status).toBe(201);
    const admin = await api(access, "/workspace", {
      method: "PATCH",
      body: JSON.stringify({ name: "Renamed" }),
    });
    expect(admin.status).toBe(403);
    expect(((await admin.json()) as { code: string }).code).toBe("insufficient_access");
    // Never stored as it is.
    const stored = await srv.query("select payload::text as p, id_hash from oauth_store");
    expect(JSON.stringify(stored)).not.toContain(access);
    expect(JSON.stringify(stored)).not.toContain(res.json.refresh_token!);
  });

  it("rotates refresh tokens, and a used one presented again revokes the whole grant", async () => {
    const clientId = await register();
    const first = await tokensFor(clientId, "read");
    const second = await token({
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
      client_id: clientId,
    });
    expect(second.status).toBe(200);
    expect(second.json.refresh_token).not.toBe(first.refresh_token);
    expect((await api(second.json.access_token!, "/issues")).status).toBe(200);

    const reused = await token({
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
      client_id: clientId,
    });
    expect(reused.status).toBe(400);
    expect(reused.json.error).toBe("invalid_grant");
    // The family is gone: the rotated refresh token and the access tokens of the grant.
    const after = await token({
      grant_type: "refresh_token",
      refresh_token: second.json.refresh_token!,
      client_id: clientId,
    });
    expect(after.json.error).toBe("invalid_grant");
    const res = await api(second.json.access_token!, "/issues");
    expect(res.status).toBe(401);
  });

  it("refuses a code used twice, and revokes what it gave", async () => {
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const { code } = await codeFor(clientId, "read", challenge);
    const body = {
      grant_type: "authorization_code",
      code: code!,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    };
    const first = await token(body);
    expect(first.status).toBe(200);
    const again = await token(body);
    expect(again.json.error).toBe("invalid_grant");
    expect((await api(first.json.access_token!, "/issues")).status).toBe(401);
  });

  it("requires PKCE with S256: no challenge, a plain one, or a wrong verifier is refused", async () => {
    const clientId = await register();
    const downgrades: Record<string, string>[] = [
      { scope: "read" },
      { scope: "read", code_challenge: "x".repeat(43), code_challenge_method: "plain" },
    ];
    for (const params of downgrades) {
      const { res } = await authorize(clientId, params);
      const location = new URL(res.headers.get("location")!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get("error")).toBe("invalid_request");
    }
    const { challenge } = pkce();
    const { code } = await codeFor(clientId, "read", challenge);
    const wrong = await token({
      grant_type: "authorization_code",
      code: code!,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: pkce().verifier,
    });
    expect(wrong.json.error).toBe("invalid_grant");
  });

  it("matches redirect URIs exactly: another path, query or host is never redirected to", async () => {
    const clientId = await register();
    for (const redirect of [
      `${REDIRECT}/more`,
      `${REDIRECT}?x=1`,
      "http://127.0.0.2:9/callback",
      "http://127.0.0.1:9/Callback",
    ]) {
      const { res } = await authorize(clientId, {
        scope: "read",
        redirect_uri: redirect,
        code_challenge: pkce().challenge,
        code_challenge_method: "S256",
      });
      expect({ redirect, status: res.status, location: res.headers.get("location") }).toEqual({
        redirect,
        status: 400,
        location: null,
      });
    }
  });

  it("refuses scope escalation: on refresh, and past the approving key's own access", async () => {
    const clientId = await register();
    const tokens = await tokensFor(clientId, "read");
    const wider = await token({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId,
      scope: "read admin",
    });
    expect(wider.json.error).toBe("invalid_scope");

    const readKey = (
      await srv
        .client(adminKey)
        .POST("/api-keys", { body: { name: "reader", scope: "account", access: "read" } })
    ).data!.key.token;
    const { confirm } = await codeFor(clientId, "write", pkce().challenge, readKey);
    expect(confirm.status).toBe(403);
    expect(((await confirm.json()) as { code: string }).code).toBe("insufficient_access");
  });

  it("revokes an access token at once (RFC 7009)", async () => {
    const clientId = await register();
    const tokens = await tokensFor(clientId, "read");
    expect((await api(tokens.access_token, "/issues")).status).toBe(200);
    const res = await fetch(
      meta.revocation_endpoint,
      formPost({ token: tokens.access_token, client_id: clientId }),
    );
    expect(res.status).toBe(200);
    const after = await api(tokens.access_token, "/issues");
    expect(after.status).toBe(401);
  });

  it("keeps a token's event stream open through access changes, and closes it when the token is revoked", async () => {
    const clientId = await register();
    const tokens = await tokensFor(clientId, "read");
    const controller = new AbortController();
    const res = await fetch(`${srv.url}/api/v1/events`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    let text = "";
    let ended = false;
    void (async () => {
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
    })()
      .catch(() => undefined)
      .finally(() => {
        ended = true;
      });
    try {
      await expect.poll(() => text).toContain("event: connected");
      // A member joins: the server re-reads the access of the workspace's streams, and this one holds.
      const joined = await srv.addMember(adminKey, "member");
      await expect.poll(() => text, { timeout: 8_000 }).toContain(joined.userId);
      const label = (await srv.client(adminKey).POST("/labels", { body: { name: `after-${Date.now()}` } }))
        .data!.label;
      await expect.poll(() => text, { timeout: 8_000 }).toContain(label.id);
      expect(ended).toBe(false);

      const revoked = await fetch(
        meta.revocation_endpoint,
        formPost({ token: tokens.access_token, client_id: clientId }),
      );
      expect(revoked.status).toBe(200);
      await expect.poll(() => ended, { timeout: 8_000 }).toBe(true);
      expect(text).toContain(": closing: an access token of this grant was revoked");
    } finally {
      controller.abort();
    }
  });

  it("gives a guest's token only what a guest may, whatever its scope", async () => {
    const guest = await srv.addMember(adminKey, "guest");
    const admin = srv.client(adminKey);
    await admin.POST("/teams", { body: { key: "HID", name: "Hidden" } });
    const hidden = (await admin.POST("/issues", { body: { team: "HID", title: "Not for guests" } })).data!
      .issue;
    const clientId = await register();
    const tokens = await tokensFor(clientId, "admin", guest.token);
    expect(tokens.scope).toBe("admin");
    const rename = await api(tokens.access_token, "/workspace", {
      method: "PATCH",
      body: JSON.stringify({ name: "X" }),
    });
    expect(rename.status).toBe(403);
    expect(((await rename.json()) as { code: string }).code).toBe("admin_required");
    expect((await api(tokens.access_token, `/issues/${hidden.identifier}`)).status).toBe(404);
  });

  it("binds a token to its workspace: another one is refused", async () => {
    const clientId = await register();
    const tokens = await tokensFor(clientId, "read");
    const other = (await srv.client(adminKey).POST("/workspaces", { body: { name: "Elsewhere" } })).data!
      .workspace;
    const res = await srv.fetch(
      new Request(`${srv.url}/api/v1/issues`, {
        headers: { authorization: `Bearer ${tokens.access_token}`, "x-service-workspace": other.slug },
      }),
    );
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe("workspace_forbidden");
  });

  it("works across instances: consent, token and revocation on one, the API on the other", async () => {
    // Instances of one deployment share its public URL, and so the issuer.
    const second = await startAnotherInstance(srv.databaseUrl, { publicUrl: srv.url });
    try {
      const clientId = await register();
      const { verifier, challenge } = pkce();
      // Authorized on the first instance; the consent answered and the code redeemed on the second.
      const { jar, res } = await authorize(clientId, {
        scope: "read",
        code_challenge: challenge,
        code_challenge_method: "S256",
      });
      const interaction = res.headers.get("location")!;
      const confirm = await jar(`${second.url}${interaction}/confirm`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${adminKey}` },
        body: JSON.stringify({ workspace: slug }),
      });
      expect(confirm.status).toBe(200);
      const { redirectTo } = (await confirm.json()) as { redirectTo: string };
      const back = await jar(redirectTo);
      const code = new URL(back.headers.get("location")!, srv.url).searchParams.get("code")!;
      const redeemed = await fetch(
        `${second.url}/oauth/token`,
        formPost({
          grant_type: "authorization_code",
          code,
          redirect_uri: REDIRECT,
          client_id: clientId,
          code_verifier: verifier,
        }),
      );
      expect(redeemed.status).toBe(200);
      const { access_token } = (await redeemed.json()) as { access_token: string };
      // A list, so the first instance caches the caller; the revocation on the second still holds at once.
      expect((await api(access_token, "/issues")).status).toBe(200);
      expect((await api(access_token, "/issues")).status).toBe(200);
      await fetch(
        `${second.url}/oauth/token/revocation`,
        formPost({ token: access_token, client_id: clientId }),
      );
      expect((await api(access_token, "/issues")).status).toBe(401);
    } finally {
      await second.close();
    }
  });

  it("prunes what expired more than an hour ago, and keeps the rest", async () => {
    await srv.query(
      `insert into oauth_store (kind, id_hash, payload, expires_at) values
         ('AuthorizationCode', 'old', '{}', now() - interval '2 hours'),
         ('AuthorizationCode', 'recent', '{}', now() - interval '1 minute'),
         ('Client', 'kept', '{}', null)`,
    );
    expect(await pruneExpired(srv.running.orm.em.fork())).toBeGreaterThanOrEqual(1);
    const left = await srv.query<{ id_hash: string }>(
      "select id_hash from oauth_store where id_hash in ('old', 'recent', 'kept') order by id_hash",
    );
    expect(left.map((r) => r.id_hash)).toEqual(["kept", "recent"]);
  });

  // Last in the file: it spends this address's registrations.
  it("answers response_mode=form_post with a page its policy lets post to the app, and never framed", async () => {
    const clientId = await register();
    const { challenge } = pkce();
    const { jar, res } = await authorize(clientId, {
      scope: "read",
      code_challenge: challenge,
      code_challenge_method: "S256",
      response_mode: "form_post",
    });
    expect(res.status).toBe(303);
    const interaction = res.headers.get("location")!;
    expect((await jar(`${interaction}/details`)).status).toBe(200);
    const confirm = await jar(`${interaction}/confirm`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${adminKey}` },
      body: JSON.stringify({ workspace: slug }),
    });
    expect(confirm.status).toBe(200);
    const page = await jar(((await confirm.json()) as { redirectTo: string }).redirectTo);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`action="${REDIRECT}"`);
    // The provider's own submitting script by its hash (http/security-headers.ts sets the policy it extends);
    // no form-action, since the form posts to the app's origin.
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'sha256-[^']+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("form-action");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
  });

  it("limits registrations from one address, answering 429 with Retry-After", async () => {
    let accepted = 0;
    let refused: Response | undefined;
    for (let n = 0; n < 40 && !refused; n++) {
      const res = await fetch(meta.registration_endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
      });
      if (res.status === 201) accepted++;
      else refused = res;
    }
    expect(refused?.status).toBe(429);
    expect(((await refused!.json()) as { code: string }).code).toBe("rate_limited");
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // The burst of 20, less what this file registered before, and perhaps one refilled meanwhile.
    expect(accepted).toBeLessThanOrEqual(20);
  });
});
