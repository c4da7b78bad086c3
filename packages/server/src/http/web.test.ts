import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../test/harness.js";
import { webMiddleware } from "./web.js";

async function serve(dir: string | undefined): Promise<{ url: string; server: Server }> {
  const app = new Koa();
  app.use(webMiddleware(dir));
  const server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("the web board's files", () => {
  let dir: string;
  let built: { url: string; server: Server };
  let missing: { url: string; server: Server };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "tracker-web-build-"));
    mkdirSync(path.join(dir, "assets"));
    writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>board</title>");
    writeFileSync(path.join(dir, "assets", "app-1234.js"), "console.log('board')");
    writeFileSync(path.join(dir, "assets", "app-1234.js.gz"), gzipSync("console.log('board')"));
    writeFileSync(path.join(tmpdir(), "outside.txt"), "secret");
    built = await serve(dir);
    missing = await serve(path.join(dir, "nowhere"));
  });

  afterAll(async () => {
    built.server.close();
    missing.server.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(path.join(tmpdir(), "outside.txt"), { force: true });
  });

  test("`/` and client routes answer the app's page, never cached stale", async () => {
    for (const route of ["/", "/acme/team/ENG/board", "/acme/issue/ENG-12?x=1"]) {
      const res = await fetch(`${built.url}${route}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(await res.text()).toContain("<title>board</title>");
    }
  });

  test("hashed assets are cached for a year and sent gzipped to clients that accept it", async () => {
    const res = await fetch(`${built.url}/assets/app-1234.js`, { headers: { "Accept-Encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("content-type")).toContain("text/javascript");
    expect(await res.text()).toBe("console.log('board')");
  });

  test("a missing asset and a path outside the build are not served", async () => {
    expect((await fetch(`${built.url}/assets/nope-1.js`)).status).toBe(404);
    const escaped = await fetch(`${built.url}/..%2Foutside.txt`);
    expect(await escaped.text()).not.toContain("secret");
  });

  test("without a build, `/` says how to make one", async () => {
    const res = await fetch(`${missing.url}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("npm run build");
  });
});

describe("the board beside the API", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  test("the API, its reference and the health probe keep their own answers", async () => {
    const unknown = await fetch(`${server.url}/api/v1/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toContain("application/problem+json");
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/docs`)).headers.get("content-type")).toContain("text/html");
    const board = await fetch(`${server.url}/`);
    expect(board.status).toBe(200);
    expect(board.headers.get("content-type")).toContain("text/html");
  });
});
