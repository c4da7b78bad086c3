import { describe, expect, it } from "vitest";
import { useTestServer } from "../test/harness.js";
import { BOARD_CSP, DOCS_CSP, OAUTH_CSP } from "./security-headers.js";

/** Every HTML page carries its Content-Security-Policy and the framing headers (`security-headers.ts`). */
const srv = useTestServer();

const get = (path: string) => fetch(`${srv.url}${path}`, { redirect: "manual" });

function expectPageHeaders(res: Response, csp: string) {
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  expect(res.headers.get("content-security-policy")).toBe(csp);
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  expect(res.headers.get("permissions-policy")).toContain("camera=()");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  // Over plain http (and no trusted proxy saying otherwise): no HSTS.
  expect(res.headers.get("strict-transport-security")).toBeNull();
}

describe("security headers", () => {
  it("on the board, its client routes and the consent page: a strict policy, never framed", async () => {
    for (const path of ["/", "/acme/team/ENG/board", "/consent/some-interaction", "/issue/ENG-1"]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expectPageHeaders(res, BOARD_CSP);
    }
    expect(BOARD_CSP).toContain("frame-ancestors 'none'");
    expect(BOARD_CSP).toMatch(/script-src 'self'(;|$)/);
  });

  it("on the API reference, with its own policy: its inline style, no script", async () => {
    const res = await get("/docs");
    expectPageHeaders(res, DOCS_CSP);
    expect(await res.text()).not.toContain("<script");
  });

  it("on the pages the OAuth provider renders itself (the device grant's)", async () => {
    const res = await get("/oauth/device");
    expect(res.status).toBe(200);
    expectPageHeaders(res, OAUTH_CSP);
    expect(await res.text()).toContain("<form");
  });

  it("leaves the policy off answers that are not pages, nosniff on all", async () => {
    for (const path of ["/health", "/api/v1/openapi.json", "/oauth/jwks", "/api/v1/users"]) {
      const res = await get(path);
      expect(res.headers.get("content-security-policy"), path).toBeNull();
      expect(res.headers.get("x-frame-options"), path).toBeNull();
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });
});
