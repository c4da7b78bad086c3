import { beforeAll, describe, expect, it } from "vitest";
import { cookieBrowser } from "../test/browser-visit.js";
import { useTestServer } from "../test/harness.js";

/**
 * Malformed requests to every OAuth endpoint (`oauth/mount.ts`, `oauth/consent.ts`, the device pages):
 * each is refused with an OAuth error body (RFC 6749 section 5.2: `error`) or the server's problem body,
 * as JSON, and never with a 5xx, whatever cookie, header or body is missing or wrong.
 */

const srv = useTestServer();

interface Probe {
  name: string;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const JSON_TYPE = { "content-type": "application/json" };
const BASIC_JUNK = { authorization: `Basic ${Buffer.from("nobody:wrong").toString("base64")}` };

/** What a careless or hostile client sends: no body, a wrong content type, bad JSON, unknown values. */
function probes(clientId: string): Probe[] {
  const list: Probe[] = [];
  const bodies: [string, Record<string, string>, string][] = [
    ["no body", FORM, ""],
    ["a JSON body where a form is expected", JSON_TYPE, '{"token": 1}'],
    ["broken JSON", JSON_TYPE, "{not json"],
    ["a form of junk", FORM, "a=%ZZ&&=&token"],
    ["text", { "content-type": "text/plain" }, "hello"],
  ];
  for (const path of ["/oauth/token", "/oauth/token/introspection", "/oauth/token/revocation", "/oauth/reg"])
    for (const [what, headers, body] of bodies)
      list.push({ name: `${path}: ${what}`, method: "POST", path, headers, body });
  for (const path of ["/oauth/token", "/oauth/token/introspection", "/oauth/token/revocation"]) {
    list.push({
      name: `${path}: unknown client`,
      method: "POST",
      path,
      headers: FORM,
      body: "client_id=nobody&token=x&grant_type=authorization_code&code=x",
    });
    list.push({
      name: `${path}: wrong client secret`,
      method: "POST",
      path,
      headers: { ...FORM, ...BASIC_JUNK },
      body: "token=x&grant_type=refresh_token&refresh_token=x",
    });
  }
  list.push(
    {
      name: "/oauth/token: a known client, junk grant",
      method: "POST",
      path: "/oauth/token",
      headers: FORM,
      body: `client_id=${clientId}&grant_type=urn:nothing`,
    },
    {
      name: "/oauth/token: a known client, device grant with a junk code",
      method: "POST",
      path: "/oauth/token",
      headers: FORM,
      body: `client_id=${clientId}&grant_type=urn:ietf:params:oauth:grant-type:device_code&device_code=junk`,
    },
    {
      name: "/oauth/reg: registration with junk metadata",
      method: "POST",
      path: "/oauth/reg",
      headers: JSON_TYPE,
      body: JSON.stringify({ redirect_uris: "not a list", grant_types: [42] }),
    },
    { name: "/oauth/reg/nobody: read an unknown client", method: "GET", path: "/oauth/reg/nobody" },
    {
      name: "/oauth/device/auth: no body",
      method: "POST",
      path: "/oauth/device/auth",
      headers: FORM,
      body: "",
    },
    {
      name: "/oauth/device/auth: unknown client",
      method: "POST",
      path: "/oauth/device/auth",
      headers: FORM,
      body: "client_id=nobody",
    },
    {
      name: "/oauth/device/auth: broken JSON",
      method: "POST",
      path: "/oauth/device/auth",
      headers: JSON_TYPE,
      body: "{",
    },
    {
      name: "/oauth/device: post without the page's cookie",
      method: "POST",
      path: "/oauth/device",
      headers: FORM,
      body: "user_code=ABCD-EFGH&xsrf=junk",
    },
    {
      name: "/oauth/device: post with no body",
      method: "POST",
      path: "/oauth/device",
      headers: FORM,
      body: "",
    },
    {
      name: "/oauth/device: broken JSON",
      method: "POST",
      path: "/oauth/device",
      headers: JSON_TYPE,
      body: "{",
    },
    {
      name: "/oauth/device/xyz/abort",
      method: "POST",
      path: "/oauth/device/xyz/abort",
      headers: FORM,
      body: "",
    },
    { name: "/oauth/auth: no parameters", method: "GET", path: "/oauth/auth" },
    {
      name: "/oauth/auth: unknown client",
      method: "GET",
      path: "/oauth/auth?client_id=nobody&response_type=code",
    },
    { name: "/oauth/auth/junk: resume an unknown interaction", method: "GET", path: "/oauth/auth/junk" },
    { name: "/oauth/auth: a post of junk", method: "POST", path: "/oauth/auth", headers: FORM, body: "%%%" },
  );
  for (const action of ["", "/details"])
    list.push({
      name: `interaction${action} with a junk uid`,
      method: "GET",
      path: `/oauth/interaction/junk${action}`,
    });
  for (const action of ["/confirm", "/deny"]) {
    list.push({
      name: `interaction${action} with a junk uid`,
      method: "POST",
      path: `/oauth/interaction/junk${action}`,
      headers: JSON_TYPE,
      body: "{}",
    });
    list.push({
      name: `interaction${action} with a junk uid and broken JSON`,
      method: "POST",
      path: `/oauth/interaction/junk${action}`,
      headers: JSON_TYPE,
      body: "{",
    });
    list.push({
      name: `interaction${action} with an odd uid`,
      method: "POST",
      path: `/oauth/interaction/%00%ff${action}`,
      headers: JSON_TYPE,
      body: "{}",
    });
  }
  return list;
}

let clientId = "";

beforeAll(async () => {
  await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const res = await fetch(`${srv.url}/oauth/reg`, {
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({
      client_name: "Sweep",
      grant_types: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: "none",
    }),
  });
  expect(res.status).toBe(201);
  clientId = ((await res.json()) as { client_id: string }).client_id;
});

describe("the OAuth endpoints refuse malformed requests", () => {
  it("with a JSON error body and a 4xx, never a 5xx", async () => {
    const answers: { name: string; status: number; type: string; error: unknown }[] = [];
    for (const probe of probes(clientId)) {
      // Each in a fresh browser: no cookie of the provider's unless the probe itself got one.
      const go = cookieBrowser(srv.url);
      const res = await go(probe.path, {
        method: probe.method,
        ...(probe.headers ? { headers: probe.headers } : {}),
        ...(probe.body !== undefined ? { body: probe.body } : {}),
      });
      const type = res.headers.get("content-type") ?? "";
      const text = await res.text();
      let error: unknown = text.slice(0, 120);
      try {
        const json = JSON.parse(text) as { error?: string; code?: string };
        error = json.error ?? json.code ?? json;
      } catch {}
      answers.push({ name: probe.name, status: res.status, type, error });
    }
    const wrong = answers.filter(
      (a) =>
        a.status >= 500 ||
        a.status < 400 ||
        !/^application\/(problem\+)?json/.test(a.type) ||
        typeof a.error !== "string",
    );
    expect(wrong).toEqual([]);
  });

  it("a browser posting the device page without its cookie is sent to a fresh page, and that page works", async () => {
    const page = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
    const go = cookieBrowser(srv.url);
    const stale = await go("/oauth/device", {
      method: "POST",
      headers: { ...FORM, ...page },
      body: "user_code=ABCD-EFGH&xsrf=junk",
    });
    expect(stale.status).toBe(400);
    expect(await stale.text()).toContain(`<a href="${srv.url}/oauth/device">Open it again</a>`);
    // The fresh page's form, posted with the cookie it set, reaches the code (unknown here: asked again).
    const fresh = await go("/oauth/device", { headers: page });
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(await fresh.text())?.[1];
    expect(xsrf).toBeDefined();
    const posted = await go("/oauth/device", {
      method: "POST",
      headers: { ...FORM, ...page },
      body: new URLSearchParams({ xsrf: xsrf!, user_code: "ABCD-EFGH" }).toString(),
    });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain("That code is not right, or has expired.");
  });
});
