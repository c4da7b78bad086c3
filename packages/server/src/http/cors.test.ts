import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { startTestServer, type TestServer } from "../test/harness.js";

const PAGE = "https://board.example.com";

describe("CORS", () => {
  let srv: TestServer;
  let token: string;
  beforeAll(async () => {
    srv = await startTestServer({ corsOrigins: [PAGE, "http://localhost:5173"] });
    token = (await srv.bootstrap()).apiKey.token;
  });
  afterAll(() => srv.close());

  it("answers a listed origin's preflight with the methods and headers a page may send", async () => {
    const res = await fetch(`${srv.url}/api/v1/issues`, {
      method: "OPTIONS",
      headers: {
        Origin: PAGE,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(res.headers.get("access-control-allow-methods")).toContain("PATCH");
    const allowed = res.headers.get("access-control-allow-headers")!.toLowerCase();
    for (const h of [
      "authorization",
      "content-type",
      "idempotency-key",
      "x-service-workspace",
      "last-event-id",
    ])
      expect(allowed).toContain(h);
    expect(res.headers.get("access-control-max-age")).toBe("600");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(res.headers.get("vary")).toContain("Origin");
  });

  it("marks answers, errors included, for a listed origin and exposes the headers clients read", async () => {
    for (const auth of [`Bearer ${token}`, "Bearer trk_unknown"]) {
      const res = await fetch(`${srv.url}/api/v1/users`, { headers: { Origin: PAGE, Authorization: auth } });
      expect(res.headers.get("access-control-allow-origin")).toBe(PAGE);
      const exposed = res.headers.get("access-control-expose-headers")!;
      for (const h of ["X-Request-Id", "X-Service-Workspace", "Retry-After", "Idempotent-Replayed", "ETag"])
        expect(exposed).toContain(h);
    }
  });

  it("gives an origin it does not list no CORS headers, so browsers keep the answer from it", async () => {
    const preflight = await fetch(`${srv.url}/api/v1/issues`, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    expect(preflight.headers.get("access-control-allow-methods")).toBeNull();
    const res = await fetch(`${srv.url}/api/v1/users`, {
      headers: { Origin: "https://evil.example", Authorization: `Bearer ${token}` },
    });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("TRACKER_CORS_ORIGINS", () => {
  it("is none by default, a list, or any origin", () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ TRACKER_CORS_ORIGINS: `${PAGE}, http://localhost:5173` }).corsOrigins).toEqual([
      PAGE,
      "http://localhost:5173",
    ]);
    expect(loadConfig({ TRACKER_CORS_ORIGINS: "*" }).corsOrigins).toBe("*");
  });

  it("refuses what is not an origin at start-up, since it could never match", () => {
    expect(() => loadConfig({ TRACKER_CORS_ORIGINS: `${PAGE}/` })).toThrow(/not an origin/);
    expect(() => loadConfig({ TRACKER_CORS_ORIGINS: "board.example.com" })).toThrow(/not an origin/);
  });
});
