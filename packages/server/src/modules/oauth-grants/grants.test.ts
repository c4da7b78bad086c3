import { createHash, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { cookieBrowser, formPost } from "../../test/browser-visit.js";
import { databaseFingerprint } from "../../test/fingerprint.js";
import { useTestServer } from "../../test/harness.js";

/**
 * The apps a person authorised (openapi.yaml, `listOAuthGrants`, `revokeOAuthGrant`): an app registers, the
 * person approves it on the consent endpoints with their key, the app's token works; the grant is listed
 * with the app's own name, the workspace and the access, and revoking it refuses the token and the refresh
 * token at once. Another person's grant is 404 to them, and nothing changes.
 */
const srv = useTestServer();
const REDIRECT = "http://127.0.0.1:9/callback";
let meta: { authorization_endpoint: string; token_endpoint: string; registration_endpoint: string };

beforeAll(async () => {
  meta = (await (await fetch(`${srv.url}/.well-known/oauth-authorization-server`)).json()) as typeof meta;
});

/** An app named `name` approved by the holder of `key` for `workspace`, with `scope`: its tokens. */
async function approve(name: string, key: string, workspace: string, scope: string) {
  const reg = await fetch(meta.registration_endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      client_uri: "https://app.example.com",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
    }),
  });
  const { client_id } = (await reg.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const url = new URL(meta.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id,
    response_type: "code",
    redirect_uri: REDIRECT,
    scope,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  const jar = cookieBrowser(srv.url);
  const interaction = (await jar(url.href)).headers.get("location")!;
  await jar(interaction);
  const confirm = await jar(`${interaction}/confirm`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ workspace }),
  });
  expect(confirm.status).toBe(200);
  const back = await jar(((await confirm.json()) as { redirectTo: string }).redirectTo);
  const code = new URL(back.headers.get("location")!, srv.url).searchParams.get("code")!;
  const tokens = await fetch(
    meta.token_endpoint,
    formPost({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id,
      code_verifier: verifier,
    }),
  );
  expect(tokens.status).toBe(200);
  return {
    clientId: client_id,
    ...((await tokens.json()) as { access_token: string; refresh_token: string }),
  };
}

const api = (token: string, method: string, path: string) =>
  srv.fetch(
    new Request(`${srv.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${token}` } }),
  );

describe("apps authorised", () => {
  it("lists the grant as the app named itself, and revoking it refuses its tokens at once", async () => {
    const { apiKey, workspace } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const app = await approve("Deploy Helper", apiKey.token, workspace.slug, "read write");
    expect((await api(app.access_token, "GET", "/teams")).status).toBe(200);

    const listed = await api(apiKey.token, "GET", "/oauth-grants");
    const { grants } = (await listed.json()) as { grants: Record<string, unknown>[] };
    expect(grants).toEqual([
      {
        id: expect.any(String),
        client: { id: app.clientId, name: "Deploy Helper", uri: "https://app.example.com" },
        workspace: { id: workspace.id, name: workspace.name, slug: workspace.slug },
        access: "write",
        createdAt: expect.stringMatching(/Z$/),
      },
    ]);
    // The app's own token lists it too (its workspace is the grant's).
    expect(
      ((await (await api(app.access_token, "GET", "/oauth-grants")).json()) as { grants: [] }).grants,
    ).toHaveLength(1);

    const revoked = await api(apiKey.token, "DELETE", `/oauth-grants/${grants[0]!.id}`);
    expect({ status: revoked.status, body: await revoked.json() }).toEqual({
      status: 200,
      body: { ok: true },
    });
    const after = await api(app.access_token, "GET", "/teams");
    expect({ status: after.status, code: ((await after.json()) as { code: string }).code }).toEqual({
      status: 401,
      code: "unauthenticated",
    });
    const refresh = await fetch(
      meta.token_endpoint,
      formPost({ grant_type: "refresh_token", refresh_token: app.refresh_token, client_id: app.clientId }),
    );
    expect(refresh.status).toBe(400);
    expect(
      ((await (await api(apiKey.token, "GET", "/oauth-grants")).json()) as { grants: [] }).grants,
    ).toEqual([]);
    const again = await api(apiKey.token, "DELETE", `/oauth-grants/${grants[0]!.id}`);
    expect(again.status).toBe(404);
  });

  it("never lists or revokes another person's grant (404), changing nothing", async () => {
    const { apiKey, workspace } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const member = await srv.addMember(apiKey.token, "member");
    const app = await approve("Member's App", member.token, workspace.slug, "read");
    const theirs = (
      (await (await api(member.token, "GET", "/oauth-grants")).json()) as { grants: { id: string }[] }
    ).grants[0]!.id;
    expect(
      ((await (await api(apiKey.token, "GET", "/oauth-grants")).json()) as { grants: [] }).grants,
    ).toEqual([]);
    const before = await databaseFingerprint(srv);
    for (const id of [theirs, "00000000-0000-4000-8000-000000000000", "nonsense"]) {
      const res = await api(apiKey.token, "DELETE", `/oauth-grants/${id}`);
      expect({ id, status: res.status }).toEqual({ id, status: 404 });
    }
    expect(await databaseFingerprint(srv)).toBe(before);
    expect((await api(app.access_token, "GET", "/teams")).status).toBe(200);

    // A read token may list, not revoke (a credential: admin access).
    const refused = await api(app.access_token, "DELETE", `/oauth-grants/${theirs}`);
    expect({ status: refused.status, code: ((await refused.json()) as { code: string }).code }).toEqual({
      status: 403,
      code: "insufficient_access",
    });
    expect(await databaseFingerprint(srv)).toBe(before);
  });
});
